package retrieve_test

import (
	"os"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

func packFixture(t *testing.T) *fixture {
	f := newFixture(t)
	imp := 0.95
	f.add(
		mem{path: "constraints/no-secrets", kind: schema.KindConstraint, title: "Never commit secrets", body: "API keys and tokens live in the environment; cairn redacts them before any write.", pinned: true, age: 200},
		mem{path: "constraints/vault-lock", kind: schema.KindConstraint, title: "All vault writes take the lock", body: "Every write goes through vault.Update, which holds the flock.", age: 90},
		mem{path: "decisions/use-bleve", kind: schema.KindDecision, title: "Use bleve for search", body: "Bleve is pure Go and gives BM25 with stemming.\n\n## Details\n\nSQLite FTS5 needed cgo.", age: 40, importance: &imp},
		mem{path: "decisions/use-sqlite", kind: schema.KindDecision, title: "Use SQLite FTS for search", body: "The first plan.", age: 120, status: schema.StatusSuperseded, supersededBy: "mem://project/decisions/use-bleve"},
		mem{path: "decisions/lexical-default", kind: schema.KindDecision, title: "The lexical embedder is the default", body: "No model and no network by default.", age: 10},
		mem{path: "patterns/error-wrapping", kind: schema.KindPattern, title: "Errors wrap with %w and name the file", body: "fmt.Errorf with %w; messages name the file and line.", age: 30},
		mem{path: "reminders/rotate-keys", kind: schema.KindReminder, title: "Rotate the staging keys", body: "They expire at the end of the month.", gate: "session-start", age: 5},
		mem{path: "reminders/release-notes", kind: schema.KindReminder, title: "Write the release notes", body: "Due before the tag.", gate: "2026-12-15", age: 5},
		mem{path: "reminders/always-tests", kind: schema.KindReminder, title: "Run make test before pushing", gate: "always", age: 50},
		mem{path: "threads/flaky-sync", kind: schema.KindThread, title: "Fix the flaky sync test before release", body: "TestSync fails one run in twenty.", tags: []string{"action-required"}, age: 3},
		mem{path: "threads/shard-index", kind: schema.KindThread, title: "Should the index be sharded past 100k memories?", body: "Measure first.", age: 8, session: "s-prev"},
		mem{path: "threads/old-question", kind: schema.KindThread, title: "Was the old importer needed?", status: schema.StatusDone, age: 60},
		mem{path: "sessions/2026-11-20-aaa", kind: schema.KindSession, title: "Session: index generations", body: "Asked: make rebuilds safe. Done: generations with a current pointer. Left: shard question.", age: 2.5, session: "s-old"},
		mem{path: "sessions/2026-11-21-bbb", kind: schema.KindSession, title: "Session: search speed", body: "Asked: speed up search at 10k memories. Done: BM25F over postings, parallel legs. Left: decide on sharding.", age: 0.8, session: "s-prev"},
		mem{path: "events/bench-10k", kind: schema.KindEvent, title: "Benchmarked search at 10k memories", body: "Hybrid search took 19 ms in process.", age: 1},
		mem{path: "outcomes/search-files", kind: schema.KindOutcome, title: "Changed index/search.go and index/bm25.go", body: "go test ./index (exit 0).", age: 1},
		mem{path: "events/old-migration", kind: schema.KindEvent, title: "Migrated the vault format", body: "Long ago.", age: 70},
		mem{path: "preferences/table-tests", kind: schema.KindPreference, title: "Prefer table-driven tests", body: "Go tests are tables run with t.Run.", scope: schema.ScopeUser, age: 100},
		mem{path: "profile/engineer", kind: schema.KindProfile, title: "Senior Go engineer", body: "Works mostly in Go and shell; terse answers welcome.", scope: schema.ScopeUser, age: 300},
	)
	return f
}

func TestPackGolden(t *testing.T) {
	f := packFixture(t)
	tests := []struct {
		name string
		req  retrieve.PackRequest
	}{
		{"session-start", retrieve.PackRequest{SessionStart: true}},
		{"task", retrieve.PackRequest{SessionStart: true, Task: "make search indexing faster"}},
		{"small-budget", retrieve.PackRequest{SessionStart: true, Task: "make search indexing faster", Budget: 220}},
		{"prompt", retrieve.PackRequest{Task: "which embedder is the default", Sections: []string{"must", "task"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := f.retriever().Pack(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, "retrieve/pack-"+tt.name+".md", []byte(p.Markdown))
			if p.Tokens > p.Budget {
				t.Fatalf("pack of %d tokens over its %d budget", p.Tokens, p.Budget)
			}
			for _, s := range p.Sections {
				for _, it := range s.Items {
					if it.URI == "mem://project/decisions/use-sqlite" {
						t.Fatal("superseded decision in the pack")
					}
					if it.Reason == "" {
						t.Fatalf("%s has no reason", it.URI)
					}
				}
			}
		})
	}
}

func TestPackObligatoryAndGates(t *testing.T) {
	f := packFixture(t)
	start, _ := f.retriever().Pack(ctx, retrieve.PackRequest{SessionStart: true})
	later, _ := f.retriever().Pack(ctx, retrieve.PackRequest{})
	must := func(p *retrieve.Pack) []string {
		var out []string
		for _, s := range p.Sections {
			if s.Name == "must" {
				for _, it := range s.Items {
					out = append(out, it.URI)
				}
			}
		}
		return out
	}
	got := strings.Join(must(start), " ")
	for _, want := range []string{"constraints/no-secrets", "reminders/rotate-keys", "reminders/always-tests", "threads/flaky-sync"} {
		if !strings.Contains(got, want) {
			t.Errorf("session start: %s missing from %s", want, got)
		}
	}
	if strings.Contains(got, "release-notes") {
		t.Errorf("a reminder due in December came up in November: %s", got)
	}
	if l := strings.Join(must(later), " "); strings.Contains(l, "rotate-keys") || !strings.Contains(l, "always-tests") {
		t.Errorf("mid-session: session-start gate should be shut, always open: %s", l)
	}
}

func TestPackIsDeterministic(t *testing.T) {
	f := packFixture(t)
	req := retrieve.PackRequest{SessionStart: true, Task: "make search indexing faster"}
	a, err := f.retriever().Pack(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.retriever().Pack(ctx, req)
	// A rebuilt cache gives the same pack too.
	os.RemoveAll(f.project.Root + "/.cache")
	os.RemoveAll(f.user.Root + "/.cache")
	c, _ := f.retriever().Pack(ctx, req)
	if a.Markdown != b.Markdown || a.Markdown != c.Markdown || a.Key != c.Key {
		t.Fatalf("packs differ:\n%s\n---\n%s\n---\n%s", a.Markdown, b.Markdown, c.Markdown)
	}
	if len(a.Markdown) >= 10000 {
		t.Fatalf("default pack is %d characters, over the hook limit", len(a.Markdown))
	}
}

func TestPackLogAndOnlyNew(t *testing.T) {
	f := packFixture(t)
	r := f.retriever()
	first, err := r.Pack(ctx, retrieve.PackRequest{SessionStart: true, Session: "s-now", Record: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Indexes()[0].AccessStats()
	if err != nil || len(st.Log) != 1 || st.Log[0].Session != "s-now" || st.Log[0].Kind != "pack" || st.Log[0].Chars != len(first.Markdown) {
		t.Fatalf("pack not logged: %+v %v", st, err)
	}
	next, _ := r.Pack(ctx, retrieve.PackRequest{Session: "s-now", Task: "search speed", OnlyNew: true})
	for _, s := range next.Sections {
		for _, it := range s.Items {
			for _, s0 := range first.Sections {
				for _, it0 := range s0.Items {
					if it.URI == it0.URI {
						t.Fatalf("%s shown twice to one session", it.URI)
					}
				}
			}
		}
	}
}
