package extract

import (
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

const signalsVersion = "2"

// Signal phrases in a prompt mean "keep this": the sentence is captured at
// once, without waiting for the session to end.
var (
	reRemember   = lazyre.New(`(?i)\b(?:please )?(?:remember|note|keep in mind) (?:this|that)\b[:,]?\s*(.*)`)
	reDontForget = lazyre.New(`(?i)\b(?:don'?t forget|do not forget|remind me)(?: to)?\b[:,]?\s*(.+)`)
	reTrick      = lazyre.New(`(?i)\bthe trick is\b[:,]?\s*(.+)`)
	reRootCauseP = lazyre.New(`(?i)\broot cause (?:is|was)\b[:,]?\s*(.+)`)
	reFromNowOn  = lazyre.New(`(?i)\b(from now on|going forward|always|never)\b`)
)

// Signals returns the memories a prompt asks to keep by its wording:
// "remember this", "don't forget", "from now on", "the trick is", "root
// cause", "we decided". Only what the person typed counts: text an IDE or
// a template put in the prompt is taken out first.
func Signals(prompt string, ref string, at time.Time) []Candidate {
	said, form := transcript.CleanPrompt(StripPrivate(prompt))
	if said == "" || form == transcript.Pasted {
		return nil
	}
	var out []Candidate
	for _, sent := range sentences(said) {
		s := statement(sent)
		if len(s) < 12 || len(s) > 400 || strings.HasSuffix(s, "?") {
			continue
		}
		c, ok := signal(s)
		if !ok {
			continue
		}
		if c.Scope == "" {
			c.Scope = schema.ScopeProject
		}
		c.Extractor, c.Time = "signals", at
		c.Tags = append(c.Tags, "remembered")
		c.Importance = 0.8
		if ref != "" {
			c.Turns = []string{ref}
		}
		out = append(out, c)
	}
	return out
}

func signal(s string) (Candidate, bool) {
	switch {
	case reDontForget.MatchString(s):
		rest := reDontForget.FindStringSubmatch(s)[1]
		return Candidate{Kind: schema.KindReminder, Title: titleFrom(rest), Body: s, Gate: string(schema.GateSessionStart),
			Status: schema.StatusOpen, Rule: "signal: don't forget", Confidence: 0.9}, true
	case reRemember.MatchString(s):
		rest := strings.TrimSpace(reRemember.FindStringSubmatch(s)[1])
		if len(subject(rest)) < 2 {
			return Candidate{}, false // "remember this" alone points at something else
		}
		c := classify(rest, s)
		c.Rule, c.Confidence = "signal: remember this", 0.9
		return c, true
	case reTrick.MatchString(s):
		return Candidate{Kind: schema.KindPattern, Title: titleFrom(reTrick.FindStringSubmatch(s)[1]), Body: s,
			Rule: "signal: the trick is", Confidence: 0.85}, true
	case reRootCauseP.MatchString(s):
		return Candidate{Kind: schema.KindCase, Title: titleFrom(reRootCauseP.FindStringSubmatch(s)[1]), Body: s,
			Rule: "signal: root cause", Confidence: 0.85}, true
	}
	if d, ok := statedDecision(s); ok && strings.Contains(strings.ToLower(s), "decided") {
		return d, true
	}
	if reFromNowOn.MatchString(s) {
		if r, ok := readRule(s); ok && r.confidence >= minConfidence {
			c := classify(r.sentence, s)
			c.Rule, c.Confidence = r.why, r.confidence
			return c, true
		}
	}
	return Candidate{}, false
}

// classify picks the kind of an explicit "remember": a personal preference,
// a rule, a decision, or a note on how things are done.
func classify(text, sent string) Candidate {
	switch {
	case reInteraction.MatchString(text) && !reProjectToken.MatchString(text) && !reThisProject.MatchString(text):
		return Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Title: titleFrom(text), Body: sent, Tags: []string{"preference"}}
	case reDecision.MatchString(sent):
		return Candidate{Kind: schema.KindDecision, Title: titleFrom(decisionTitle(text)), Body: sent, Tags: []string{"decision"}}
	case reDurable.MatchString(text) || reDont.MatchString(text) || reStop.MatchString(text):
		return Candidate{Kind: schema.KindConstraint, Title: titleFrom(text), Body: sent, Tags: []string{"rule"}}
	default:
		return Candidate{Kind: schema.KindPattern, Title: titleFrom(text), Body: sent}
	}
}
