package vault_test

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

func doc(kind, title, updated, extra, body string) []byte {
	return []byte("---\nkind: " + kind + "\ntitle: " + title + "\n" + extra + "created: 2026-01-01T00:00:00Z\nupdated: " + updated + "\n---\n\n" + body + "\n")
}

func TestMergeMemory(t *testing.T) {
	free := func(rel string) string { return strings.TrimSuffix(rel, ".md") + "-2.md" }
	tests := []struct {
		name               string
		rel                string
		base, ours, theirs []byte
		want               []string // substrings of the merged file
		notWant            []string
		extra              []string // substrings of the second file; nil means none
	}{
		{
			name:    "pattern: both sides' paragraphs kept, a deletion stays deleted",
			rel:     "patterns/conventions.md",
			base:    doc("pattern", "Conventions", "2026-01-01T00:00:00Z", "tags: [go]\n", "Errors wrap with %w.\n\nOld rule to drop."),
			ours:    doc("pattern", "Conventions", "2026-01-02T00:00:00Z", "tags: [go, style]\n", "Errors wrap with %w.\n\nOld rule to drop.\n\nTests are table-driven."),
			theirs:  doc("pattern", "Conventions", "2026-01-03T00:00:00Z", "tags: [go, errors]\nimportance: 0.9\n", "Errors wrap with %w.\n\nLogs use slog."),
			want:    []string{"Errors wrap with %w.", "Tests are table-driven.", "Logs use slog.", "style", "errors", "importance: 0.9", "updated: 2026-01-03"},
			notWant: []string{"Old rule to drop", "<<<<<<<", ">>>>>>>"},
		},
		{
			name:   "thread: done wins over open",
			rel:    "threads/flaky.md",
			base:   doc("thread", "Fix flaky test", "2026-01-01T00:00:00Z", "status: open\n", "TODO: fix it."),
			ours:   doc("thread", "Fix flaky test", "2026-01-02T00:00:00Z", "status: done\n", "TODO: fix it."),
			theirs: doc("thread", "Fix flaky test", "2026-01-03T00:00:00Z", "status: open\n", "TODO: fix it.\n\nSeen again on CI."),
			want:   []string{"status: done", "Seen again on CI."},
		},
		{
			name:   "decision: the later is current, the other superseded beside it",
			rel:    "decisions/db.md",
			base:   doc("decision", "Database", "2026-01-01T00:00:00Z", "", "Use SQLite."),
			ours:   doc("decision", "Database", "2026-01-05T00:00:00Z", "", "Use Postgres: we need concurrent writers."),
			theirs: doc("decision", "Database", "2026-01-03T00:00:00Z", "", "Use SQLite with WAL."),
			want:   []string{"Use Postgres", "supersedes:", "mem://project/decisions/db-2"},
			extra:  []string{"Use SQLite with WAL.", "status: superseded", "superseded_by: mem://project/decisions/db"},
		},
		{
			name:   "case: immutable, both kept",
			rel:    "cases/oom.md",
			ours:   doc("case", "OOM in worker", "2026-01-02T00:00:00Z", "", "Root cause: leak in cache."),
			theirs: doc("case", "OOM in worker", "2026-01-02T00:00:00Z", "", "Root cause: unbounded queue."),
			want:   []string{"leak in cache"},
			extra:  []string{"unbounded queue"},
		},
		{
			name:   "one side unchanged: the other wins outright",
			rel:    "patterns/x.md",
			base:   doc("pattern", "X", "2026-01-01T00:00:00Z", "", "a"),
			ours:   doc("pattern", "X", "2026-01-01T00:00:00Z", "", "a"),
			theirs: doc("pattern", "X", "2026-01-02T00:00:00Z", "", "b"),
			want:   []string{"\nb\n"},
		},
		{
			name:   "unparseable side: both kept, nothing lost",
			rel:    "patterns/y.md",
			base:   doc("pattern", "Y", "2026-01-01T00:00:00Z", "", "a"),
			ours:   []byte("---\nkind: [broken\n---\nours text\n"),
			theirs: doc("pattern", "Y", "2026-01-02T00:00:00Z", "", "theirs text"),
			want:   []string{"ours text"},
			extra:  []string{"theirs text"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := vault.MergeMemory(schema.ScopeProject, tt.rel, tt.base, tt.ours, tt.theirs, free)
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.Data)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("merged file lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("merged file has %q:\n%s", w, got)
				}
			}
			if (res.Extra != nil) != (tt.extra != nil) {
				t.Fatalf("extra file: %q", res.Extra)
			}
			for _, w := range tt.extra {
				if !strings.Contains(string(res.Extra), w) {
					t.Errorf("second file lacks %q:\n%s", w, res.Extra)
				}
			}
			if res.Extra != nil && res.ExtraPath == tt.rel {
				t.Fatal("the second file would overwrite the first")
			}
			if _, err := schema.Parse(tt.rel, res.Data); err != nil && tt.ours != nil && !strings.Contains(string(tt.ours), "[broken") {
				t.Fatalf("merged file does not parse: %v", err)
			}
		})
	}
}
