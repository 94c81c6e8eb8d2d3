package extract

import (
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// A check that still fails at the end is an open thread, unless the agent
// said (before the person spoke again) that the failure is not the
// session's: in a real session the loanbox tests panicked because the
// sandbox could not open a port, and the agent said so.
func TestFailingAtEndDisowned(t *testing.T) {
	exit := 1
	failing := &transcript.Call{Tool: "Bash", Command: "go test ./internal/loanbox/...", Status: transcript.Failed, Exit: &exit,
		Output: "--- FAIL: TestManageLoan (0.00s)\npanic: runtime error: invalid memory address\nFAIL"}
	for _, tc := range []struct {
		name  string
		reply string
		open  bool
	}{
		{"unexplained", "The loanbox tests fail; I will look at ManageLoan next.", true},
		{"pre-existing", "The loanbox panics are pre-existing sandbox network restrictions, nothing to do with our changes.", false},
		{"unrelated", "That failure is unrelated to our changes: the same test fails on main too.", false},
		{"speculation is not enough", "It might be the mock; the loanbox client probably needs a server.", true},
	} {
		s := &transcript.Session{Turns: []transcript.Turn{
			{Speaker: transcript.Person, Text: "Expose the available handsets query and run the tests"},
			{Speaker: transcript.Agent, Call: failing},
			{Speaker: transcript.Agent, Text: tc.reply},
		}}
		if _, open := failingAtEnd(s); open != tc.open {
			t.Errorf("%s: thread written = %v, want %v", tc.name, open, tc.open)
		}
	}
	// Said after the person moved on, it is about something else.
	s := &transcript.Session{Turns: []transcript.Turn{
		{Speaker: transcript.Agent, Call: failing},
		{Speaker: transcript.Person, Text: "Now look at the eligibility service and its retry logic"},
		{Speaker: transcript.Agent, Text: "The eligibility panics are pre-existing."},
	}}
	if _, open := failingAtEnd(s); !open {
		t.Error("a disowning said about a later request dropped the thread")
	}
}
