package extract

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// The MIT-licensed Claude Code samples parse without failing, skip what
// they cannot read with a warning naming the line, and teach no rule,
// preference or decision: none was stated in them.
func TestClaudeSamples(t *testing.T) {
	for _, f := range []string{"representative_messages.jsonl", "edge_cases.jsonl", "todowrite_examples.jsonl", "session_b.jsonl"} {
		path := "/work/shared/samples/claude-code/" + f
		if _, err := os.Stat(path); err != nil {
			t.Skipf("samples not present: %v", err)
		}
		s, err := transcript.Read(path)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, w := range s.Warnings {
			if !strings.Contains(w, f+":") {
				t.Errorf("warning does not name the file and line: %q", w)
			}
		}
		res, err := CaptureSession(context.Background(), s, Options{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Candidates {
			switch c.Kind {
			case schema.KindDecision, schema.KindConstraint, schema.KindPreference:
				t.Errorf("%s: unexpected %s %q (%s)", f, c.Kind, c.Title, c.Rule)
			}
		}
	}
	if s, _ := transcript.Read("/work/shared/samples/claude-code/edge_cases.jsonl"); s != nil && len(s.Warnings) < 5 {
		t.Errorf("edge cases: want warnings for the malformed lines, got %v", s.Warnings)
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
	s, err := transcript.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	calls := s.Calls()
	if len(s.Said()) != 1 || len(calls) != 1 || calls[0].Exit == nil || *calls[0].Exit != 2 || calls[0].Status != transcript.Failed {
		t.Fatalf("replayed session: %d said, calls %+v", len(s.Said()), calls)
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
		{"From now on, always ask me before changing more than one file.", schema.KindPreference, schema.ScopeUser},
		{"From now on, keep commit messages in this repo under 50 characters.", schema.KindConstraint, schema.ScopeProject},
		{"The root cause was a stale lock file.", schema.KindCase, schema.ScopeProject},
		{"<ide_selection>x</ide_selection>\nremember that the API base URL comes from API_ROOT.", schema.KindPattern, schema.ScopeProject},
	}
	for _, tt := range tests {
		cs := Signals(tt.prompt, "p1", time.Now())
		if len(cs) != 1 || cs[0].Kind != tt.kind || cs[0].Scope != tt.scope {
			t.Errorf("%q: %+v", tt.prompt, cs)
		}
	}
	for _, p := range []string{
		"Can you remember what we did yesterday?", "thanks!", "Should we always use pnpm?",
		"<system-reminder>NEVER create files unless necessary.</system-reminder>",
		"don't make any changes yet, just look",
		"I have never seen that syntax",
	} {
		if cs := Signals(p, "p1", time.Now()); len(cs) != 0 {
			t.Errorf("%q captured %+v", p, cs)
		}
	}
}
