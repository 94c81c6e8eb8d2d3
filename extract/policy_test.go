package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/cairnmem/cairn/vault/vaulttest"
)

// policyFixture is a real project and user vault with their indexes.
type policyFixture struct {
	t      *testing.T
	vaults map[schema.Scope]*vault.Vault
	red    *Redactor
	now    time.Time
}

func newPolicyFixture(t *testing.T) *policyFixture {
	t.Helper()
	f := &policyFixture{t: t, now: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)}
	f.vaults = vaulttest.Vaults(t, func() time.Time { return f.now })
	for _, v := range f.vaults {
		red, err := GuardVault(v)
		if err != nil {
			t.Fatal(err)
		}
		f.red = red
	}
	return f
}

// capture plans and applies candidates the way a hook does, with a fresh
// index lookup each time (each hook is its own process).
func (f *policyFixture) capture(cands ...Candidate) *Result {
	f.t.Helper()
	var ixs []*index.Index
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		ix, err := index.Open(f.vaults[sc], index.Options{})
		if err != nil {
			f.t.Fatal(err)
		}
		ixs = append(ixs, ix)
	}
	f.now = f.now.Add(time.Hour)
	res, err := CaptureCandidates(context.Background(), cands, Options{Vaults: f.vaults, Lookup: IndexLookup{R: retrieve.New(ixs)},
		Redactor: f.red, Meta: Meta{Session: "sess-1", Agent: "claude-code", Source: "hook"}, Now: f.now})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func ops(res *Result) string {
	var out []string
	for _, a := range res.Plan {
		out = append(out, string(a.Op))
	}
	return strings.Join(out, ",")
}

func (f *policyFixture) read(u schema.URI) *schema.Memory {
	f.t.Helper()
	m, err := f.vaults[u.Scope].Read(u)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

func TestPolicyLifecycle(t *testing.T) {
	f := newPolicyFixture(t)
	decision := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Extractor: "decisions",
		Title: "Use bleve for full-text search", Body: "We decided to use bleve for full-text search because it embeds in the binary."}
	thread := Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Extractor: "threads", Status: schema.StatusOpen,
		Title: "Fix the flaky port test in the server package", Body: "TODO: fix the flaky port test in the server package."}
	pref := Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Extractor: "preferences",
		Title: "Prefer table-driven tests", Body: "I prefer table-driven tests."}

	first := f.capture(decision, thread, pref)
	if got := ops(first); got != "create,create,create" {
		t.Fatalf("first capture: %s", got)
	}
	if len(first.Applied.Commits) != 2 {
		t.Fatalf("want one commit per vault, got %v", first.Applied.Commits)
	}
	dURI, tURI, pURI := first.Applied.Written[0], first.Applied.Written[1], first.Applied.Written[2]
	if pURI.Scope != schema.ScopeUser {
		t.Fatalf("preference went to %s", pURI)
	}

	// The same statements again: nothing new, nothing committed.
	again := f.capture(decision, thread, pref)
	if got := ops(again); got != "skip,skip,skip" || len(again.Applied.Commits) != 0 {
		t.Fatalf("repeat capture: %s, commits %v", got, again.Applied.Commits)
	}

	// A newer decision on the same subject supersedes; a new preference
	// statement on the same subject merges; the thread closes.
	newer := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Extractor: "decisions",
		Title: "Use bleve with scorch for full-text search", Body: "Let's go with the scorch index of bleve for full-text search instead of upsidedown because it is smaller."}
	done := thread
	done.Status = schema.StatusDone
	more := Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Extractor: "preferences",
		Title: "Prefer table-driven tests with named cases", Body: "Name every case in table-driven tests."}
	third := f.capture(newer, done, more)
	if got := ops(third); got != "supersede,close,merge" {
		t.Fatalf("third capture: %s (%+v)", got, third.Plan)
	}
	old := f.read(dURI)
	succ := third.Applied.Written[0]
	if old.Status != schema.StatusSuperseded || old.SupersededBy != succ.String() {
		t.Fatalf("old decision: status %s superseded_by %q, want superseded by %s", old.Status, old.SupersededBy, succ)
	}
	if m := f.read(succ); len(m.Supersedes) != 1 || m.Supersedes[0] != dURI.String() {
		t.Fatalf("successor supersedes %v", m.Supersedes)
	}
	if m := f.read(tURI); m.Status != schema.StatusDone {
		t.Fatalf("thread status %s", m.Status)
	}
	if m := f.read(pURI); !strings.Contains(m.Body, "table-driven tests.") || !strings.Contains(m.Body, "Name every case") {
		t.Fatalf("merged preference body:\n%s", m.Body)
	}
	if m := f.read(succ); m.Source == nil || m.Source.Session != "sess-1" || !strings.HasSuffix(m.Source.Version, RedactionVersion) {
		t.Fatalf("provenance: %+v", m.Source)
	}
}

func TestApplyRedactsBeforeCommit(t *testing.T) {
	f := newPolicyFixture(t)
	c := Candidate{Kind: schema.KindConstraint, Scope: schema.ScopeProject, Extractor: "constraints",
		Title: "Never print the deploy token", Body: "Never print DEPLOY_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789AB in logs."}
	res := f.capture(c)
	u := res.Applied.Written[0]
	data, err := os.ReadFile(filepath.Join(f.vaults[schema.ScopeProject].Root, u.RelPath()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "ghp_") || !strings.Contains(string(data), "[REDACTED:") {
		t.Fatalf("secret reached the file:\n%s", data)
	}
	// The guard stops a direct write that skipped redaction.
	v := f.vaults[schema.ScopeProject]
	m := schema.New(schema.KindEvent, "Leak", f.now)
	m.URI = schema.URI{Scope: schema.ScopeProject, Path: "events/leak"}
	m.Body = "AKIAABCDEFGHIJKLMNOP"
	if _, err := v.Create(context.Background(), m, vault.CommitMeta{}); err == nil || !strings.Contains(err.Error(), "aws-access-key") {
		t.Fatalf("guard let a secret through: %v", err)
	}
}

func TestSessionFileIsStablePerSession(t *testing.T) {
	f := newPolicyFixture(t)
	apply := func(session, path, body string) schema.URI {
		t.Helper()
		u := schema.URI{Scope: schema.ScopeProject, Path: path}
		c := Candidate{Kind: schema.KindSession, Scope: schema.ScopeProject, Extractor: "session", URI: &u, Title: "Session", Body: body}
		res, err := CaptureCandidates(context.Background(), []Candidate{c}, Options{Vaults: f.vaults, Redactor: f.red,
			Meta: Meta{Session: session}, Now: f.now})
		if err != nil {
			t.Fatal(err)
		}
		return res.Applied.Written[0]
	}
	first := apply("sess-0001", "sessions/2026-11-20-sess-000", "Asked: fix the limiter.")
	// A replay from the journal dates the session a day later: same file.
	if got := apply("sess-0001", "sessions/2026-11-21-sess-000", "Asked: fix the limiter. Done: token bucket."); got != first {
		t.Fatalf("replay wrote %s, want %s", got, first)
	}
	// Another session whose id shares the prefix gets its own file.
	other := apply("sess-0002", "sessions/2026-11-20-sess-000", "Asked: document the limiter.")
	if other == first {
		t.Fatalf("session sess-0002 overwrote sess-0001's summary at %s", other)
	}
	if got := apply("sess-0002", "sessions/2026-11-20-sess-000", "Asked: document the limiter. Done."); got != other {
		t.Fatalf("second capture of sess-0002 wrote %s, want %s", got, other)
	}
	if m := f.read(first); !strings.Contains(m.Body, "token bucket") {
		t.Fatalf("first session's summary: %s", m.Body)
	}
}

// A memory the secret guard refuses is dropped, and said so; the rest of
// the session is written: one stray token never loses a session.
func TestApplyDropsWhatTheGuardRefuses(t *testing.T) {
	f := newPolicyFixture(t)
	// A redactor that misses the secret, as a new format would: only the
	// vault's guard sees it.
	lax, _ := NewRedactor(nil)
	lax.rules = nil
	good := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Extractor: "decisions",
		Title: "Use SQLite for the board", Body: "Use SQLite instead of JSON files because writers are concurrent."}
	leak := Candidate{Kind: schema.KindEvent, Scope: schema.ScopeProject, Extractor: "gotchas",
		Title: "Deploy key", Body: "The key is AKIAABCDEFGHIJKLMNOP."}
	var log strings.Builder
	res, err := CaptureCandidates(context.Background(), []Candidate{good, leak}, Options{Vaults: f.vaults, Redactor: lax, Log: &log,
		Meta: Meta{Session: "s-guard"}, Now: f.now})
	if err != nil {
		t.Fatalf("one refused memory failed the capture: %v", err)
	}
	if len(res.Applied.Written) != 1 || !strings.Contains(res.Applied.Written[0].Path, "use-sqlite") {
		t.Fatalf("written: %v", res.Applied.Written)
	}
	if !strings.Contains(log.String(), "dropped") || !strings.Contains(log.String(), "aws-access-key") {
		t.Fatalf("the refusal is not reported: %q", log.String())
	}
	if _, err := f.vaults[schema.ScopeProject].Read(schema.URI{Scope: schema.ScopeProject, Path: "events/deploy-key"}); err == nil {
		t.Fatal("the refused memory was written")
	}
}

// One choice that two extractors saw in one session (the person's pick,
// the compaction summary's note of it) is written once, the fuller way;
// two choices on different subjects both stay.
func TestDedupBatchOneChoiceTwice(t *testing.T) {
	pick := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: "`UpsertReturning` loop over `Select` + `UpdateAll`",
		Body: "Asked: one statement or a loop?\nChosen: `UpsertReturning` loop: atomic per row\nNot chosen: `Select` + `UpdateAll`: a race window"}
	note := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: "`UpsertReturning` loop chosen over `UpdateAll+Select` for atomicity",
		Body: "`UpsertReturning` loop chosen over `UpdateAll+Select` for atomicity"}
	other := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: "`Timestamp` chosen over `string` for `expires_at`",
		Body: "`Timestamp` chosen over `string` for `expires_at`"}
	got := dedupBatch([]Candidate{pick, other, note})
	if len(got) != 2 || got[0].Body != pick.Body || got[1].Title != other.Title {
		t.Errorf("dedupBatch kept %d: %+v", len(got), got)
	}
}

// A later session that ran only commands the project file already holds
// changes nothing: no write is reported and no commit is made.
func TestApplyUnchangedIsNotAWrite(t *testing.T) {
	f := newPolicyFixture(t)
	u := schema.URI{Scope: schema.ScopeProject, Path: "patterns/build-and-test-commands"}
	cmds := func(body string) Candidate {
		uri := u
		return Candidate{Kind: schema.KindPattern, Scope: schema.ScopeProject, Extractor: "commands", URI: &uri,
			Title: "How to build and test this project", Body: body}
	}
	apply := func(session, body string) *Result {
		t.Helper()
		res, err := CaptureCandidates(context.Background(), []Candidate{cmds(body)}, Options{Vaults: f.vaults, Redactor: f.red,
			Meta: Meta{Session: session}, Now: f.now})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	apply("s-1", "Commands that passed:\n\n- test: `go test ./...`\n- build: `go build ./...`")
	res := apply("s-2", "Commands that passed:\n\n- build: `go build ./...`")
	if len(res.Applied.Written) != 0 || len(res.Applied.Commits) != 0 {
		t.Fatalf("nothing new, yet written %v, commits %v", res.Applied.Written, res.Applied.Commits)
	}
	res = apply("s-3", "Commands that passed:\n\n- lint: `go vet ./...`")
	if len(res.Applied.Written) != 1 || !strings.Contains(f.read(u).Body, "go vet") {
		t.Fatalf("a new command: written %v, body:\n%s", res.Applied.Written, f.read(u).Body)
	}
}
