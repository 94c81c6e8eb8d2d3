package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// How a session ended: stopped short, interrupted, or on the agent's
// question.

// lastRequest is the person's last substantive request, in a line.
func lastRequest(s *transcript.Session) string {
	for i := len(s.Turns) - 1; i >= 0; i-- {
		if t := s.Turns[i]; t.IsPerson() && substantive(t.Text) {
			return request(t.Text)
		}
	}
	return ""
}

// request is a request in a line. A log the person pasted is named by its
// error: its first line ("Install", a CI step's name) says nothing.
func request(text string) string {
	if strings.Count(strings.TrimSpace(text), "\n") >= 2 {
		if m := strongErrors(reLongPath.ReplaceAllString(text, "…/$1")); m != "" {
			return "the failure the person pasted (" + m + ")"
		}
	}
	return ask(text)
}

// reLongPath is an absolute path deep enough that only its tail tells the
// reader anything (a CI runner's checkout, a home directory).
var reLongPath = lazyre.New(`(?:/[\w.@-]+){3,}/([\w.@-]+/[\w.@-]+/[\w.@-]+)`)

// ending says how a session stopped when it stopped short: on a rejected
// action, an interruption, or a request the agent never answered.
func ending(s *transcript.Session) string {
	for i := len(s.Turns) - 1; i >= 0; i-- {
		t := s.Turns[i]
		switch {
		case t.Prior || t.Sidechain:
		case t.Speaker == transcript.Injected && t.Source == "interrupt":
			if c := stoppedCall(s, i); c != nil {
				// What was stopped is what the next session must check:
				// a half-run re-encode, a migration cut short.
				return "the person stopped the agent's last action (" + clip(oneLine(callPurpose(c)), 120) + ") before the last request was done"
			}
			return "interrupted by the person before the last request was done"
		case t.Call != nil && t.Call.Status == transcript.NotRun && t.Call.Why == "rejected":
			return "the person rejected the agent's last action (" + clip(oneLine(callPurpose(t.Call)), 120) + ")"
		case t.IsPerson() && substantive(t.Text):
			return "before the agent answered the last request: " + request(t.Text)
		case t.Call != nil && !t.Call.ByPerson:
			// No closing reply after the agent's last action: it stopped mid-work.
			if last := lastRequest(s); last != "" {
				return "while the agent was still working on: " + last
			}
			return ""
		case t.IsAgent():
			return closing(t.Text)
		case t.Call != nil:
			return ""
		}
	}
	return ""
}

// closeSentence ends a sentence with one full stop, or with the question
// or exclamation mark it ends with.
func closeSentence(s string) string {
	s = strings.TrimRight(s, ". ")
	if strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

var reGenericQ = lazyre.New(`(?i)^(?:anything else|what else|is there anything|does (?:this|that|it) (?:help|make sense|look (?:good|right))|any (?:other )?questions|(?:do you )?want me to (?:do|help with) anything)`)

// closing is how a session the agent had the last word in ended: on a
// question to the person, which the next session should take up; "" for
// a plain report. The agent's own "next steps" are not used: they are
// suggestions nobody asked for.
func closing(text string) string {
	sents := sentences(text)
	for i := len(sents) - 1; i >= max(0, len(sents)-2); i-- {
		q := statement(sents[i])
		if strings.HasSuffix(q, "?") && !reGenericQ.MatchString(q) && len(subject(q)) >= 3 {
			return "with the agent asking: " + clip(oneLine(q), 200)
		}
	}
	return ""
}

// stoppedCall is the agent's call an interrupt at turn i cut short: the
// last one since the person last spoke, when it did not finish.
func stoppedCall(s *transcript.Session, i int) *transcript.Call {
	for j := i - 1; j >= 0; j-- {
		t := s.Turns[j]
		switch {
		case t.Prior || t.Sidechain || t.IsAgent():
		case t.Call != nil && !t.Call.ByPerson:
			if t.Call.Status == transcript.NotRun || t.Call.Status == transcript.Unknown {
				return t.Call
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// callPurpose says what a call was for: the agent's own description of
// it when the harness kept one ("Re-encode review videos at VP9 CRF 37"),
// else its name.
func callPurpose(c *transcript.Call) string {
	if d, ok := c.Input["description"].(string); ok && len(strings.TrimSpace(d)) >= 8 {
		return strings.TrimSpace(d)
	}
	return callName(c)
}

func callName(c *transcript.Call) string {
	if c.Command != "" {
		return shortCmd(c.Command)
	}
	if len(c.Files) > 0 {
		return c.Tool + " " + strings.Join(c.Files, ", ")
	}
	return c.Tool
}
