package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/transcript"
)

// The person settles how something is to be and the agent acts on it:
// that is a decision. A call about the next minute, a question, a call
// the agent never acted on, or one taken back later is not.
func TestExtractCalls(t *testing.T) {
	person := func(ref, text string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Person, Text: text, Ref: ref}
	}
	edit := func(file string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Edit", Files: []string{file}, Status: transcript.OK}}
	}
	agent := func(text string) transcript.Turn { return transcript.Turn{Speaker: transcript.Agent, Text: text} }
	s := &transcript.Session{ID: "1842319d-fe3b", Agent: "claude-code", Start: time.Date(2025, 6, 20, 9, 0, 0, 0, time.UTC), Turns: []transcript.Turn{
		person("p1", "Let's keep `lib/` as regular Nix modules, as they are not meant to be exposed outside of this flake."),
		edit("/repo/flake.nix"),
		person("p2", "Don't make any changes yet, look at `systems/nixos/default.nix` first."),
		agent("It takes the inputs as a function argument."),
		person("p3", "Should `hosts/` use `@inputs` too?"),
		edit("/repo/hosts/default.nix"),
		person("p4", "Use `specialArgs` for the hostname instead of a module option."),
		agent("Sure, that works."),
		person("p5", "Use `forAllSystems` in `flake.nix` for the outputs."),
		edit("/repo/flake.nix"),
		person("p6", "Actually, revert the `forAllSystems` change, keep the outputs per system."),
		edit("/repo/flake.nix"),
	}}
	got := extractCalls(s)
	if len(got) != 1 {
		t.Fatalf("extractCalls = %d candidates, want 1", len(got))
	}
	c := got[0]
	if !strings.Contains(c.Body, "Let's keep `lib/` as regular Nix modules") {
		t.Errorf("body lacks the call acted on:\n%s", c.Body)
	}
	for _, not := range []string{"Don't make any changes", "@inputs", "specialArgs", "forAllSystems"} {
		if strings.Contains(c.Body, not) {
			t.Errorf("body holds %q, which is not a standing call:\n%s", not, c.Body)
		}
	}
	if c.URI == nil || c.URI.Path != "decisions/calls-2025-06-20-1842319d" || c.Confidence < minConfidence {
		t.Errorf("URI %v, confidence %.2f: want the session's own decisions/calls-… file, written", c.URI, c.Confidence)
	}
}
