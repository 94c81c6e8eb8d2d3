package extract

import (
	"fmt"
	"path"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Some gotchas are fixed without touching the code: a command fails with
// a message that states what it needs (a feature branch, a package the
// project does not declare), the agent satisfies it with a command, and the same
// command then passes unchanged. The error and the pass are the evidence;
// the agent need not explain anything.

// rePrecondStep is a command that puts the environment in the state a
// failing command asked for: a branch checked out, a package the project
// did not declare installed. A branch the agent creates (checkout -b) is
// not one: its name is the agent's pick, and a pick that only quiets a
// check can be the wrong one (a spec kit reads the spec folder from it).
// Installing what the project declares (npm
// install, pip install -r) only sets up a fresh checkout, and re-running
// outside the sandbox is not a step at all: the commands memory says
// which checks need either.
var rePrecondStep = lazyre.New(`^(?:sudo\s+)?(?:git (?:checkout|switch)|(?:pip3?|uv pip|python3? -m pip|npm|pnpm|yarn|brew|apt|apt-get|cargo) (?:install|add|i)|uv add|go get)\s+[^-\s]`)

// reRestoreStep is a checkout that restores files rather than switching
// branches: undoing the agent's own change.
var reRestoreStep = lazyre.New(`\s--(?:\s|$)|\s\.$|\s-r\s`)

// preconditionCases finds failing commands that passed, unchanged, once a
// step satisfied what their error asked for.
func preconditionCases(s *transcript.Session) []Candidate {
	var out []Candidate
	for i, t := range s.Turns {
		c := t.Call
		if c == nil || t.Prior || t.Sidechain || crFailure(c) {
			continue
		}
		if _, ok := failure(c); !ok {
			continue
		}
		msg := strongErrors(c.Output)
		if msg == "" {
			continue // no message saying what it needs
		}
		steps, pass, ok := satisfied(s, i)
		if !ok {
			continue
		}
		out = append(out, precondCase(s, t, steps, pass, msg))
	}
	return out
}

// satisfied follows a failed call to the next run of the same command: it
// counts when that run passed, no file changed in between, and at least
// one step in between set up what the command needed. The person asking
// for something else ends the search.
func satisfied(s *transcript.Session, at int) (steps []transcript.Turn, pass transcript.Turn, ok bool) {
	fail := s.Turns[at].Call
	for _, t := range s.Turns[at+1:] {
		if t.Prior || t.Sidechain {
			continue
		}
		if t.IsPerson() {
			return nil, pass, false
		}
		c := t.Call
		if c == nil {
			continue
		}
		switch {
		case len(c.Files) > 0 || c.Tool == "ApplyPatch" || c.Tool == "Edit" || c.Tool == "Write":
			return nil, pass, false // a change to the code: the other extractors' shape
		case sameCommand(c, fail):
			// Passing only once outside the sandbox says nothing about the step.
			ok := c.Status == transcript.OK && len(steps) > 0 && (!c.Escalated || fail.Escalated)
			return steps, t, ok
		case c.Status == transcript.OK && precondStep(c.Command):
			steps = append(steps, t)
		}
	}
	return nil, pass, false
}

// precondStep reports a command line whose work is a precondition step.
func precondStep(cmd string) bool {
	if strings.Contains(cmd, "\n") {
		return false
	}
	for _, seg := range splitSegments(cmd) {
		if reCd.MatchString(seg) {
			continue
		}
		return rePrecondStep.MatchString(seg) && !reRestoreStep.MatchString(seg) && !reFileArg.MatchString(seg[strings.LastIndexByte(seg, ' ')+1:])
	}
	return false
}

// precondCase is the case a satisfied precondition leaves: titled by what
// the failing command needed, with the error that said so.
func precondCase(s *transcript.Session, fail transcript.Turn, steps []transcript.Turn, pass transcript.Turn, msg string) Candidate {
	cmd := programName(fail.Call.Command)
	var did []string
	refs := []string{fail.Ref}
	tools := []string{fail.Call.ID}
	for _, st := range steps {
		did = append(did, "`"+shortCmd(st.Call.Command)+"`")
		refs = append(refs, st.Ref)
		tools = append(tools, st.Call.ID)
	}
	refs = append(refs, pass.Ref)
	tools = append(tools, pass.Call.ID)
	step := strings.Join(did, ", then ")
	var b strings.Builder
	fmt.Fprintf(&b, "Symptom: `%s` failed: %s\n\n", shortCmd(fail.Call.Command), msg)
	fmt.Fprintf(&b, "Fix: ran %s (no code change); the same command then passed.\n", step)
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject,
		Title:   precondTitle(cmd, keyMessage(msg), shortCmd(steps[len(steps)-1].Call.Command)),
		Body:    strings.TrimSpace(b.String()),
		Summary: clip(fmt.Sprintf("`%s` fails with %q until %s is run.", cmd, msg, step), 240),
		Tags:    []string{"gotcha"}, Turns: refs, Tools: tools,
		Rule:       "precondition: failed, a setup step, then passed unchanged",
		Confidence: 0.8, Time: pass.Time}
}

// precondTitle names the command, what its error said and the step that
// made it pass; a step too long for a title keeps its program and verb
// (the body has it whole).
func precondTitle(cmd, msg, step string) string {
	title := fmt.Sprintf("`%s`: \"%s\" until `%s`", cmd, msg, step)
	if f := strings.Fields(step); len(title) > 90 && len(f) > 2 {
		title = fmt.Sprintf("`%s`: \"%s\" until `%s`", cmd, msg, strings.Join(f[:2], " "))
	}
	return titleFrom(title)
}

// keyMessage is an error message's first sentence without its "ERROR:"
// label: what a title quotes.
func keyMessage(msg string) string {
	msg, _, _ = strings.Cut(msg, " / ")
	msg = reErrorLabel.ReplaceAllString(msg, "")
	if i := strings.Index(msg, ". "); i > 0 {
		msg = msg[:i]
	}
	return strings.TrimRight(msg, ". ")
}

var reErrorLabel = lazyre.New(`(?i)^(?:error|fatal)(?:\[\w+\])?:\s*`)

// programName is a command as a reader names it: the program without the
// directory it lives in, with its first argument ("check.sh --json",
// "mix precommit").
func programName(cmd string) string {
	f := strings.Fields(bareCommand(cmd))
	if len(f) == 0 {
		return ""
	}
	if f[0] == "bash" || f[0] == "sh" {
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	f[0] = path.Base(f[0])
	if len(f) > 1 && !strings.HasPrefix(f[1], "-") {
		return f[0] + " " + f[1] // "mix precommit": the task is the command
	}
	return f[0]
}
