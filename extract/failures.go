package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Problems a session met: failures that were the project's, what the
// person reported, and fixes that made a failing command pass.

// troubled reports a person describing a problem: in their words, or with
// error lines pasted in (a pasted ticket with "error" in its prose is not).
func troubled(t transcript.Turn) bool {
	if t.Form == transcript.Pasted {
		ex := errorExcerpt(t.Text)
		return ex != "" && !transcript.IsProse(ex)
	}
	return reTrouble.MatchString(t.Text)
}

// failure reads a call as a problem: a real failure with an error to show,
// not a search that found nothing.
func failure(c *transcript.Call) (problem, bool) {
	if c.Status != transcript.Failed || c.Command != "" && reProbe.MatchString(c.Command) {
		return problem{}, false
	}
	ex := errorExcerpt(c.Output)
	if ex == "" {
		return problem{}, false
	}
	sym := ex
	if c.Command != "" {
		sym = fmt.Sprintf("`%s` failed: %s", shortCmd(c.Command), ex)
	}
	return problem{symptom: sym, call: c}, true
}

// reported is the person's description of a problem, or the error lines
// of what they pasted.
func reported(text string) string {
	if ex := errorExcerpt(text); ex != "" && !transcript.IsProse(ex) {
		return ex
	}
	return clip(oneLine(statement(text)), 240)
}

// sameCommand reports two runs of one command: the same check, or the
// same command line.
func sameCommand(a, b *transcript.Call) bool {
	if a.Command == "" || b.Command == "" {
		return false
	}
	_, ca, _, okA := verifyCommand(a.Command)
	_, cb, _, okB := verifyCommand(b.Command)
	if okA && okB {
		return ca == cb || strings.HasPrefix(ca, cb) || strings.HasPrefix(cb, ca)
	}
	return shortCmd(a.Command) == shortCmd(b.Command)
}

// envStep reports a step that changes the environment rather than the
// code: what fixes "works on my machine" problems.
func envStep(c *transcript.Call) bool {
	if c.Status != transcript.OK || c.Command == "" {
		return false
	}
	if c.Escalated {
		return true
	}
	for _, seg := range splitSegments(c.Command) {
		if reEnvStep.MatchString(seg) {
			return true
		}
	}
	return false
}

// retried is the case a failing command leaves when it passes after a
// change: the failure, what changed, and the agent's explanation when it
// gave one. A code change without an explanation is just iteration.
func retried(s *transcript.Session, p *problem) (Candidate, bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "Symptom: %s\n", p.symptom)
	conf := 0.5
	rule := "failed, changed, passed"
	switch {
	case p.best.Title != "":
		return p.best, true
	case len(p.env) > 0:
		fmt.Fprintf(&b, "\nFix: %s\n", strings.Join(p.env[:min(3, len(p.env))], "; "))
		conf, rule = 0.7, "failed, environment changed, passed"
	case p.call.Escalated:
		fmt.Fprintf(&b, "\nFix: ran outside the agent's sandbox (escalated permissions)\n")
		conf, rule = 0.7, "failed in the sandbox, passed escalated"
	default:
		return Candidate{}, false
	}
	fmt.Fprintf(&b, "\nVerified: `%s` passed afterwards.", shortCmd(p.call.Command))
	c := Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom(p.symptom), Body: strings.TrimSpace(b.String()),
		Summary: clip(oneLine(p.symptom+". Fixed by: "+strings.Join(p.env[:min(3, len(p.env))], "; ")), 200),
		Tags:    []string{"gotcha"}, Turns: []string{p.turn.Ref}, Tools: []string{p.call.ID}, Rule: rule, Confidence: conf, Time: p.turn.Time}
	return c, true
}
