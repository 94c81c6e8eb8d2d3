package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A check that cannot pass here yet is a gotcha the person settles by
// word: it failed for a reason outside the code (a database not running),
// and the person says not to run it because it does not work. The next
// session would otherwise run it again and chase the same failure.

var (
	// reSkipRun is the person telling the agent not to run a command;
	// the command is the first two words after the verb.
	reSkipRun = lazyre.New("(?i)\\b(?:(?:don'?t|do not|no need to)\\s+(?:bother\\s+)?run(?:ning)?|skip(?:ping)?(?:\\s+running)?)\\s+(?:the\\s+)?`?([\\w.:/-]+(?:\\s+[\\w.:/-]+)?)")
	// reSandboxOnly is output of a run the agent's sandbox stopped: a
	// denial says nothing about the check.
	reSandboxOnly = lazyre.New(`(?i)\beperm\b|operation not permitted|sandbox`)
	// reFailAccount is the agent saying why a run failed.
	reFailAccount = lazyre.New(`(?i)\bfail\w*\b.*\b(?:because|due to)\b`)
)

// skippedChecks finds commands the person said not to run because they do
// not work, after a run of them failed outside the sandbox and none
// passed.
func skippedChecks(s *transcript.Session) []Candidate {
	var out []Candidate
	for i, t := range s.Turns {
		if !t.IsPerson() || t.Form == transcript.Pasted || !reTrouble.MatchString(t.Text) {
			continue
		}
		m := reSkipRun.FindStringSubmatch(t.Text)
		if m == nil {
			continue
		}
		if c, ok := brokenCheck(s, i, strings.ToLower(m[1])); ok {
			out = append(out, c)
		}
	}
	return out
}

// brokenCheck reads the session before the person's word for the runs of
// the command they named: one failed with an error outside the sandbox,
// none passed; the agent's last account of why it failed is the cause.
func brokenCheck(s *transcript.Session, at int, named string) (Candidate, bool) {
	var fail *transcript.Turn
	var cause string
	for i := range s.Turns[:at] {
		t := &s.Turns[i]
		if t.Prior || t.Sidechain {
			continue
		}
		if t.IsAgent() && fail != nil && strings.Contains(strings.ToLower(t.Text), named) {
			for _, sent := range sentences(t.Text) {
				if len(sent) <= 300 && reFailAccount.MatchString(sent) && !reSandboxOnly.MatchString(sent) {
					cause = dropChatLead(sent)
				}
			}
		}
		c := t.Call
		if c == nil || c.Command == "" || !namesCommand(named, c.Command) {
			continue
		}
		switch {
		case c.Status == transcript.OK:
			return Candidate{}, false // it passed once: not broken here
		case c.Status == transcript.NotRun || reSandboxOnly.MatchString(c.Output) || errorExcerpt(c.Output) == "":
		default:
			fail = t
		}
	}
	if fail == nil || cause == "" {
		return Candidate{}, false
	}
	return skipCase(*fail, s.Turns[at], cause), true
}

// namesCommand reports a person's words naming a command line's program
// ("mix precommit" names `cd app && mix precommit`).
func namesCommand(named, cmd string) bool {
	pn := strings.ToLower(programName(cmd))
	return pn != "" && (named == pn || strings.HasPrefix(named, pn+" "))
}

// skipSentence is the sentence of the person's words that sets the check
// aside.
func skipSentence(text string) string {
	for _, sent := range sentences(text) {
		if reSkipRun.MatchString(sent) {
			return sent
		}
	}
	return text
}

// lastError is the error a run ended on: a long check prints warnings
// and build lines first, and the message that stopped it last.
func lastError(out string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && len(l) < 400 && !reErrorNoise.MatchString(l) && (reErrorMessage.MatchString(l) || reRaised.MatchString(l)) {
			return clip(l, 200)
		}
	}
	return errorMessage(out)
}

// reRaised is an exception a BEAM task stopped on ("** (Mix) ...").
var reRaised = lazyre.New(`^\*\*\s*\([\w.]+\)\s+\S`)

// skipCase is the case a check the person set aside leaves: titled by the
// check and why it fails.
func skipCase(fail, said transcript.Turn, cause string) Candidate {
	cmd := programName(fail.Call.Command)
	why := cause
	for _, lead := range []string{"because ", "due to "} {
		if i := strings.Index(strings.ToLower(why), lead); i >= 0 {
			why = why[i+len(lead):]
			break
		}
	}
	why, _, _ = strings.Cut(why, ", so ")
	var b strings.Builder
	fmt.Fprintf(&b, "Symptom: `%s` failed: %s\n\nCause: %s\n\n", shortCmd(fail.Call.Command), lastError(fail.Call.Output), statement(cause))
	fmt.Fprintf(&b, "The person said not to run it: %q\n", clip(oneLine(statement(skipSentence(said.Text))), 160))
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject,
		Title:   titleFrom(fmt.Sprintf("`%s` fails here: %s", cmd, statement(why))),
		Body:    strings.TrimSpace(b.String()),
		Summary: clip(fmt.Sprintf("`%s` fails here: %s; the person said to skip it for now.", cmd, oneLine(statement(why))), 240),
		Tags:    []string{"gotcha"}, Turns: []string{fail.Ref, said.Ref}, Tools: []string{fail.Call.ID},
		Rule:       "check set aside: failed outside the sandbox, the person said to skip it",
		Confidence: 0.75, Time: said.Time}
}
