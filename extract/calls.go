package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// The calls a person made in a session: "for now we view signedAt as the
// start of the contract", "I want it to be a flake", "switch to ginkgo".
// Not standing rules (extractRules keeps those), but how this piece of the
// project was settled, in the person's words, and acted on: the agent
// changed files right after.

var (
	// reCall is wording that settles something.
	reCall = lazyre.New(`(?i)(\b(?:i want|i don'?t want|i'?d like|i would like|i prefer|let'?s|lets|we (?:should|need to|want|view|use|will|'ll)|should (?:be|point|use|live|go|have|only|stay)|needs? to (?:be|live|go|stay)|instead|rather than|until told otherwise|switch to|go with|call (?:it|the \w+))\b|^(?:use|make|keep|put|move|call|name|remove|drop)\b)`)
	// reNotCall is a call about the conversation or the next minute, not
	// the project: how to work this turn, what not to touch yet.
	reNotCall = lazyre.New(`(?i)\b(yet|right now|at the moment|this time|one at a time|don'?t (?:make|run|change|touch|commit|push)|do not (?:make|run|change|touch|commit|push)|only touch|make a plan|plan for|look (?:at|into)|check|verify|test it|try|show me|tell me|explain|let me know|ask me|read|review)\b`)
)

// maxCalls bounds one session's calls.
const maxCalls = 5

// extractCalls keeps the person's sentences that settle how something is
// to be, concrete, not a question or a maybe, not taken back later, and
// acted on before the person spoke again.
func extractCalls(s *transcript.Session) []Candidate {
	said := s.Said()
	takeBacks := reversals(said)
	acted := actedOn(s)
	var calls []string
	var c Candidate
	for i, t := range said {
		if !acted[t.Ref] {
			continue
		}
		for _, sent := range sentences(t.Text) {
			sent = statement(sent)
			if len(sent) < 20 || len(sent) > 300 || strings.HasSuffix(sent, "?") || !reCall.MatchString(sent) ||
				reNotCall.MatchString(sent) || reMaybe.MatchString(sent) || !reProjectToken.MatchString(sent) ||
				reversedAfter(takeBacks, i, sent) {
				continue
			}
			if len(calls) < maxCalls {
				calls = append(calls, upperFirst(sent))
				c.Turns = append(c.Turns, t.Ref)
				if c.Created.IsZero() {
					c.Created = t.Time
				}
				c.Time = t.Time
			}
		}
	}
	if len(calls) == 0 {
		return nil
	}
	var b strings.Builder
	for _, x := range calls {
		b.WriteString("- " + clip(oneLine(x), 300) + "\n")
	}
	b.WriteString("\nAs the person put it in session " + sessionSlug(s) + "; the agent acted on each.")
	u := schema.URI{Scope: schema.ScopeProject, Path: "decisions/calls-" + sessionSlug(s)}
	c.Kind, c.Scope, c.URI = schema.KindDecision, schema.ScopeProject, &u
	c.Title, c.Summary, c.Body = titleFrom(calls[0]), clip(oneLine(calls[0]), 200), b.String()
	c.Tags = []string{"decision", s.Agent}
	c.Rule, c.Confidence = "the person's call, acted on", 0.7
	return []Candidate{c}
}

// actedOn are the person's turns the agent answered by changing files.
func actedOn(s *transcript.Session) map[string]bool {
	out := map[string]bool{}
	last := ""
	for _, t := range s.Turns {
		switch {
		case t.IsPerson():
			last = t.Ref
		case t.Call != nil && !t.Call.ByPerson && len(t.Call.Files) > 0 && last != "":
			out[last] = true
		}
	}
	return out
}
