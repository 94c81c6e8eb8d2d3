package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// The shape of a Codex session that fixes a CI failure: the person pastes
// the log, the agent changes files and runs the tests, and only then
// reports "Cause: … Fix: …". The fix came before the explanation.
func TestCaseReportedAfterTheFix(t *testing.T) {
	pasted := "Run python -m pytest -q\n..F..\n=================================== FAILURES ===================================\n" +
		"tests/test_cli.py:12: in run_main\n    main()\nopk/cli/__main__.py:162: in main\n    args = parser.parse_args(argv)\n" +
		"E   argparse.ArgumentError: argument cmd: conflicting subparser: gcode-hooks\n" +
		"Error: Process completed with exit code 1."
	report := "Good catch — the remaining CI failure came from duplicate subparsers.\n\n" +
		"- argparse conflicts\n  - Cause: the gcode subcommands were registered twice in `opk/cli/__main__.py`, once before and once after spool.\n" +
		"  - Fix: Removed the earlier duplicate block and kept the consolidated definitions.\n"
	session := func(after ...transcript.Turn) *transcript.Session {
		s := &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
			{Ref: "u1", Speaker: transcript.Person, Form: transcript.Pasted, Text: pasted},
			{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/opk/cli/__main__.py"}, Status: transcript.OK}},
			{Ref: "c2", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "pytest -q", Status: transcript.OK, Output: "36 passed"}},
			{Ref: "a1", Speaker: transcript.Agent, Text: report},
		}}
		s.Turns = append(s.Turns, after...)
		return s
	}
	cs := extractGotchas(session())
	if len(cs) != 1 {
		t.Fatalf("got %d cases, want 1: %+v", len(cs), cs)
	}
	c := cs[0]
	for _, want := range []string{
		"Symptom: argparse.ArgumentError: argument cmd: conflicting subparser: gcode-hooks\n",
		"Cause: the gcode subcommands were registered twice",
		"Fix: Removed the earlier duplicate block",
		"Verified: `pytest` passed afterwards.",
	} {
		if !strings.Contains(c.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, c.Body)
		}
	}
	if strings.Contains(c.Body, "Cause: Cause") || strings.Contains(c.Body, "=====") || strings.HasPrefix(c.Title, "Cause") {
		t.Errorf("labels or log decoration leaked into the case:\n%s\n%s", c.Title, c.Body)
	}
	if c.Confidence < minConfidence {
		t.Errorf("confidence %.2f under the threshold: a verified, explained fix is not written", c.Confidence)
	}
	// The person coming back with the same failure: the cause was wrong.
	if cs := extractGotchas(session(transcript.Turn{Ref: "u2", Speaker: transcript.Person, Text: "Still failing on CI with the same error"})); len(cs) != 0 {
		t.Errorf("a fix the person said did not hold was written: %+v", cs)
	}
}

// A cause that names no mechanism ("behaved inconsistently") is a guess:
// in a real session the agent patched around a file it had not committed
// and called the import "inconsistent".
func TestVagueCauseIsAGuess(t *testing.T) {
	s := &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
		{Ref: "u1", Speaker: transcript.Person, Form: transcript.Pasted, Text: "tests/test_cli.py:33: in test_workspace_init\nopk/cli/__main__.py:173: in main\nE   ImportError: cannot import name 'init_workspace' from 'opk.workspace.scaffold'"},
		{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/opk/cli/__main__.py"}, Status: transcript.OK}},
		{Ref: "c2", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "pytest -q", Status: transcript.OK, Output: "36 passed"}},
		{Ref: "a1", Speaker: transcript.Agent, Text: "- Cause: on 3.10 in source-run mode, importing `init_workspace` behaved inconsistently.\n- Fix: fall back to a minimal inline initializer."},
	}}
	for _, c := range extractGotchas(s) {
		if c.Confidence >= minConfidence {
			t.Errorf("a vague cause was written (%.2f): %s", c.Confidence, c.Title)
		}
	}
}
