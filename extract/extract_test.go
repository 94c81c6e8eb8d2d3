package extract

import (
	"os"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
	"github.com/cairnmem/cairn/schema"
)

const samples = "../../shared/samples/claude-code/"

// The real samples parse without failing, skip what they cannot read with
// a warning naming the line, and yield no memory nobody would keep.
func TestClaudeSamples(t *testing.T) {
	for _, f := range []string{"representative_messages.jsonl", "edge_cases.jsonl", "todowrite_examples.jsonl", "session_b.jsonl"} {
		path := samples + f
		if _, err := os.Stat(path); err != nil {
			path = "/work/shared/samples/claude-code/" + f
		}
		if _, err := os.Stat(path); err != nil {
			t.Skipf("samples not present: %v", err)
		}
		tr, _, err := ParseFile(path)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(tr.Events) == 0 {
			t.Fatalf("%s: no events", f)
		}
		for _, w := range tr.Warnings {
			if !strings.Contains(w, f+":") {
				t.Errorf("warning does not name the file and line: %q", w)
			}
		}
		for _, c := range Run(Assemble(tr, "claude-code")) {
			if labeledKinds[string(c.Kind)] && c.Status != schema.StatusDone && c.Extractor != "threads" {
				t.Errorf("%s: unexpected %s %q from a sample without decisions or rules", f, c.Kind, c.Title)
			}
		}
	}
	if tr, _, _ := ParseFile("/work/shared/samples/claude-code/edge_cases.jsonl"); tr != nil && len(tr.Warnings) < 5 {
		t.Errorf("edge cases: want warnings for the malformed lines, got %v", tr.Warnings)
	}
}

func TestCodexRollout(t *testing.T) {
	tr, agent, err := ParseFile(golden.Path("extract", "codex-rollout.jsonl"))
	if err != nil || agent != "codex" {
		t.Fatalf("%v, agent %q", err, agent)
	}
	if tr.Session != "0199aa11-2222-7333-8444-555566667777" || tr.Cwd != "/work/app" || len(tr.Warnings) != 2 {
		t.Fatalf("meta: session %q cwd %q warnings %v", tr.Session, tr.Cwd, tr.Warnings)
	}
	s := Assemble(tr, agent)
	if got := strings.Join(s.FilesTouched(), ","); got != "config/load.go" {
		t.Fatalf("files: %q", got)
	}
	if len(s.Prompts()) != 1 {
		t.Fatalf("the environment context is not a prompt: %d prompts", len(s.Prompts()))
	}
	kinds := map[schema.Kind][]Candidate{}
	for _, c := range Run(s) {
		kinds[c.Kind] = append(kinds[c.Kind], c)
	}
	if len(kinds[schema.KindCase]) != 1 || !strings.Contains(kinds[schema.KindCase][0].Body, "nil map") {
		t.Fatalf("case: %+v", kinds[schema.KindCase])
	}
	if len(kinds[schema.KindDecision]) != 1 || !strings.Contains(kinds[schema.KindDecision][0].Title, "YAML") {
		t.Fatalf("decision: %+v", kinds[schema.KindDecision])
	}
	open := 0
	for _, c := range kinds[schema.KindThread] {
		if c.Status == schema.StatusOpen {
			open++
		}
	}
	if open < 1 {
		t.Fatalf("threads: %+v", kinds[schema.KindThread])
	}
	if o := kinds[schema.KindOutcome]; len(o) != 1 || !strings.Contains(o[0].Body, "exit 1") || !strings.Contains(o[0].Body, "exit 0") {
		t.Fatalf("outcome: %+v", o)
	}
}

func TestJournalRoundTripRedacts(t *testing.T) {
	dir := t.TempDir()
	red, _ := NewRedactor(nil)
	big := strings.Repeat("x", 3*maxJournalString)
	entries := []JournalEntry{
		{Event: "user-prompt", Session: "s 1/..", Data: map[string]any{"prompt": "use key sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345 now"}},
		{Event: "post-tool", Session: "s 1/..", Data: map[string]any{"tool_name": "Bash", "tool_use_id": "t1", "tool_input": map[string]any{"command": "go test ./..."},
			"tool_response": map[string]any{"stdout": big, "exit_code": float64(2)}}},
		{Event: "stop", Session: "s 1/..", Data: map[string]any{"last_assistant_message": "All done."}},
	}
	for _, e := range entries {
		if err := AppendJournal(dir, e, red); err != nil {
			t.Fatal(err)
		}
	}
	path := JournalPath(dir, "s 1/..")
	if !strings.HasPrefix(path, dir) || strings.Contains(path, "..") {
		t.Fatalf("journal path escapes: %s", path)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "sk-ant-") || len(raw) > 3*maxJournalString {
		t.Fatalf("journal kept a secret or an unbounded output (%d bytes)", len(raw))
	}
	tr, err := ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	s := Assemble(tr, "claude-code")
	if len(s.Prompts()) != 1 || len(s.Calls) != 1 || s.Calls[0].Exit() != 2 || len(s.Replies()) != 1 {
		t.Fatalf("replayed session: %d prompts %d calls %+v", len(s.Prompts()), len(s.Calls), s.Calls)
	}
}

func TestSignals(t *testing.T) {
	tests := []struct {
		prompt string
		kind   schema.Kind
		scope  schema.Scope
	}{
		{"Remember this: the staging database is read-only on weekends.", schema.KindPattern, schema.ScopeProject},
		{"Don't forget to rotate the deploy key before Friday.", schema.KindReminder, schema.ScopeProject},
		{"Never run the seed script against production.", schema.KindConstraint, schema.ScopeProject},
		{"We decided to keep the monorepo.", schema.KindDecision, schema.ScopeProject},
		{"The trick is to warm the cache before the benchmark.", schema.KindPattern, schema.ScopeProject},
		{"Always use pnpm here.", schema.KindPreference, schema.ScopeUser},
		{"The root cause was a stale lock file.", schema.KindCase, schema.ScopeProject},
	}
	for _, tt := range tests {
		cs := Signals(Event{Kind: EventText, Role: "user", Human: true, Text: tt.prompt})
		if len(cs) != 1 || cs[0].Kind != tt.kind || cs[0].Scope != tt.scope {
			t.Errorf("%q: %+v", tt.prompt, cs)
		}
	}
	for _, p := range []string{"Can you remember what we did yesterday?", "thanks!", "Should we always use pnpm?"} {
		if cs := Signals(Event{Kind: EventText, Role: "user", Human: true, Text: p}); len(cs) != 0 {
			t.Errorf("%q captured %+v", p, cs)
		}
	}
}
