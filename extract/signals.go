package extract

import (
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

const signalsVersion = "1"

// Signal phrases in a prompt mean "keep this": the sentence is captured at
// once, without waiting for the session to end.
var (
	reRemember   = regexp.MustCompile(`(?i)\b(?:please )?remember (?:this|that)\b[:,]?\s*(.*)`)
	reDontForget = regexp.MustCompile(`(?i)\b(?:don'?t forget|do not forget|remind me)(?: to)?\b[:,]?\s*(.+)`)
	reTrick      = regexp.MustCompile(`(?i)\bthe trick is\b[:,]?\s*(.+)`)
	reRootCauseP = regexp.MustCompile(`(?i)\broot cause (?:is|was)\b[:,]?\s*(.+)`)
	reAlwaysNevr = regexp.MustCompile(`(?i)\b(always|never)\b`)
	reWeDecided  = regexp.MustCompile(`(?i)\bwe(?:'ve| have)? decided\b`)
)

// Signals returns the memories a prompt asks to keep by its wording:
// "remember this", "don't forget", "always", "never", "we decided", "the
// trick is", "root cause".
func Signals(prompt Event) []Candidate {
	if !prompt.Human {
		return nil
	}
	var out []Candidate
	for _, sent := range sentences(prompt.Text) {
		if len(sent) < 12 || len(sent) > 400 || reQuestion.MatchString(sent) {
			continue
		}
		var c Candidate
		switch {
		case reDontForget.MatchString(sent):
			rest := reDontForget.FindStringSubmatch(sent)[1]
			c = Candidate{Kind: schema.KindReminder, Title: titleFrom(rest), Body: sent, Gate: string(schema.GateSessionStart), Status: schema.StatusOpen}
		case reRemember.MatchString(sent):
			rest := strings.TrimSpace(reRemember.FindStringSubmatch(sent)[1])
			if len(rest) < 8 {
				continue // "remember this" alone points at something else
			}
			c = classify(rest, sent)
		case reTrick.MatchString(sent):
			c = Candidate{Kind: schema.KindPattern, Title: titleFrom(reTrick.FindStringSubmatch(sent)[1]), Body: sent}
		case reRootCauseP.MatchString(sent):
			c = Candidate{Kind: schema.KindCase, Title: titleFrom("Root cause: " + reRootCauseP.FindStringSubmatch(sent)[1]), Body: sent}
		case reWeDecided.MatchString(sent) && !reHypothetical.MatchString(sent):
			c = Candidate{Kind: schema.KindDecision, Title: titleFrom(decisionTitle(sent)), Body: sent}
		case reAlwaysNevr.MatchString(sent) && !reHypothetical.MatchString(sent):
			c = classify(sent, sent)
		default:
			continue
		}
		if c.Scope == "" {
			c.Scope = schema.ScopeProject
		}
		c.Extractor = "signals"
		c.Tags = append(c.Tags, "remembered")
		c.Importance = 0.8
		if r := prompt.Ref(); r != "" {
			c.Turns = []string{r}
		}
		out = append(out, c)
	}
	return out
}

// classify picks the kind of an explicit "remember": a personal preference,
// a rule, a decision, or a note on how things are done.
func classify(text, sent string) Candidate {
	switch {
	case rePreference.MatchString(sent):
		return Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Title: titleFrom(text), Body: sent}
	case reDecisionHuman.MatchString(sent):
		return Candidate{Kind: schema.KindDecision, Title: titleFrom(decisionTitle(text)), Body: sent}
	case reConstraint.MatchString(text) || reAlwaysNevr.MatchString(text):
		return Candidate{Kind: schema.KindConstraint, Title: titleFrom(text), Body: sent}
	default:
		return Candidate{Kind: schema.KindPattern, Title: titleFrom(text), Body: sent}
	}
}
