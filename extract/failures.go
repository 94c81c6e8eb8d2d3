package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
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
	return reTrouble.MatchString(t.Text) || promptFailure(t.Text) != ""
}

// promptFailure is the error terminal output the person pasted ends on:
// the error messages after its last prompt line ("❯ docker compose run
// ..." then "exec: backstopjs: not found"); "" when there is no prompt
// line or no error after it. Pasted between lines of prose, such output
// is not read as pasted material, but it is the person reporting a
// failure.
func promptFailure(text string) string {
	idx := rePromptLine.FindAllStringIndex(text, -1)
	if len(idx) == 0 {
		return ""
	}
	return strongErrors(text[idx[len(idx)-1][1]:])
}

// failure reads a call as a problem: a real failure with an error to show,
// not a search that found nothing.
func failure(c *transcript.Call) (problem, bool) {
	if c.Status != transcript.Failed || c.Command != "" && reProbe.MatchString(c.Command) || environmentFailure(c.Output) {
		return problem{}, false
	}
	ex := errorExcerpt(c.Output)
	if ex == "" || len(reWords.FindAllString(ex, 4)) < 3 {
		return problem{}, false // no error a reader could recognise
	}
	sym := errorMessage(c.Output)
	if c.Command != "" {
		sym = fmt.Sprintf("`%s` failed: %s", shortCmd(c.Command), sym)
	}
	return problem{symptom: sym, call: c}, true
}

// reported is the person's description of a problem, or the error lines
// of what they pasted.
func reported(text string) string {
	if m := promptFailure(text); m != "" {
		return m
	}
	if ex := errorExcerpt(text); ex != "" && !transcript.IsProse(ex) {
		return errorMessage(text)
	}
	return clip(oneLine(statement(text)), 240)
}

var reWords = lazyre.New(`[A-Za-z]{3,}`)

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
// change: the explanation found for it, if one was. A change without one
// is iteration, and an environment step that made it pass (a re-run
// outside the sandbox, an install) is the commands memory's to record.
func retried(_ *transcript.Session, p *problem) (Candidate, bool) {
	return p.best, p.best.Title != ""
}
