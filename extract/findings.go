package extract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// What a session found out about the code, as its agent said when it
// reported back: "gqlgen only knows about resolver methods, which is why
// helper functions can't live in schema.resolvers.go". Agents put such
// findings in the report that closes a request, mixed with what they
// changed, what they propose and what they ask; only the sentences that
// explain something concrete are kept, and only from reports the person
// did not contradict.

var (
	// reFindingNamed names a cause or the reason for something outright.
	reFindingNamed = lazyre.New(`(?i)(^(?:root )?cause:|^found it\b|\b(?:summary of the|the) (?:issue|problem):|\bthe fix (?:is|was)\b|\b(?:root cause|that'?s why|which is why|turns? out|turned out|the reason (?:is|was)|(?:is|was|were|are) (?:due to|caused by)|caused by|the (?:real |actual |underlying )?(?:issue|problem|bug|culprit|cause) (?:is|was))\b)`)
	// reFindingExplains explains in passing: a because, an expectation, a
	// rule with the wrong way named.
	reFindingExplains = lazyre.New(`\b((?i:because|due to|comes? from|came from)|expects?|expected by|(?i:mismatch\w*|only (?:works|knows|accepts|reads|runs|supports|needs)|must\b.*\bnot\b|not \S+ but))\b`)
	// reHedged is a guess, not a finding.
	reHedged = lazyre.New(`(?i)\b(might|maybe|probably|likely|possibly|perhaps|i suspect|suspect|could be|seems?|appears? to|i think|i believe|presumably|guess|should|would|will)\b`)
	// reProposal is what the agent offers or plans, not what it found.
	reProposal = lazyre.New(`(?i)(^(?:if |want me|would you|do you|should i|shall i|let me|i'?ll|i will|i can|you can|you could|you need|we can|we could|we'?d|we need|next|optional|consider|to (?:verify|test|run|fix)|run\b|try\b|once\b|when you|commit:)|\b(?:i'?ll|let me|want me to|would you like|if you want|if you'?d like|you'?ll need|we'?ll need|needs? (?:updating|fixing|changing|regenerating))\b|^i(?:'|’)?m\b|^i (?:am|was)\b|\bnow i(?:'|’)?m\b)`)
	// reChangeLog opens a line of what was changed, which the session
	// summary already says.
	reChangeLog = lazyre.New(`(?i)^(?:the (?:change|fix|patch|commit) )?(?:i (?:also )?)?(?:adds|added|updated|made|replaced|changed|moved|created|removed|fixed|implemented|switched|renamed|refactored|wired|kept|now)\b`)
	// reRightLead opens the agent's agreement with a correction: what
	// follows it is the finding.
	reRightLead = lazyre.New(`(?i)^(?:good catch|you(?:'|’)?re (?:absolutely |totally |completely )?(?:right|correct)(?: to push back)?)\s*(?:[—–:,.-]+\s*(?:thanks[^.:—–]*[.:—–]\s*)?)?`)
	// reFoundLead announces a finding without adding to it.
	reFoundLead = lazyre.New(`(?i)^found it\s*[—–:,.!-]*\s*`)
	// reInstruction is a step to take, labelled or not ("`.zprofile`:
	// remove X, guard Y so it only runs if..."): advice, not a finding.
	reInstruction = lazyre.New(`(?i)^(?:[^:]{1,40}:\s*)?(?:remove|guard|add|use|set|install|run|create|replace|move|change|update|keep|make|delete|wrap|pass|call|check|ensure|avoid|don'?t|do not|never|always)\b`)
	// reAnaphora leans on what came before it: "Same root cause in X",
	// "This avoids ...": alone in a note it says nothing.
	reAnaphora = lazyre.New(`(?i)^(?:same\b|(?:this|it|that|these|those) (?:avoids|creates|makes|keeps|ensures|means|adds|lets|allows|uses|is|was|are|were)\b)`)
	// reConcrete is something in the code a finding is about: a quoted
	// name, a file, an identifier.
	reConcrete = lazyre.New("`[^`]{2,}`|\\b[\\w-]+\\.(?:go|py|ts|tsx|js|jsx|rs|rb|ex|exs|java|kt|swift|c|h|cpp|cs|php|json|yaml|yml|toml|md|sh|nix|conf|proto|sql|html|css)\\b|\\b[a-z]+[A-Z]\\w+|\\b[A-Za-z]+_\\w+\\b|\\b[A-Z][a-z]+[A-Z]\\w+")
)

// maxFindings bounds one session's findings: past this a memory is a
// transcript, not a note.
const maxFindings = 5

// finding is one sentence of a report, and how plainly it explains.
type finding struct {
	text     string
	strength int // 3: owns a correction; 2: names a cause; 1: explains in passing
	order    int
	turn     transcript.Turn
}

// extractFindings keeps what the agent's reports explain about the code,
// the plainest first, as one note per session (rewritten as the session
// goes on, like its summary).
func extractFindings(s *transcript.Session) []Candidate {
	var found []finding
	for _, p := range prose(s) {
		for _, sent := range sentences(p.turn.Text) {
			if f, ok := readFinding(sent); ok {
				f.order, f.turn = len(found), p.turn
				found = append(found, f)
			}
		}
	}
	found = withoutRepeats(found, s)
	if len(found) == 0 {
		return nil
	}
	slices.SortStableFunc(found, func(a, b finding) int { return cmp.Compare(b.strength, a.strength) })
	found = found[:min(len(found), maxFindings)]
	best := found[0]
	slices.SortFunc(found, func(a, b finding) int { return cmp.Compare(a.order, b.order) })
	var b strings.Builder
	conf := 0.7
	if best.strength >= 2 {
		conf = 0.75
	}
	c := Candidate{Kind: schema.KindPattern, Scope: schema.ScopeProject, Tags: []string{"learned", s.Agent},
		Title: titleFrom(reCauseLabelLead.ReplaceAllString(best.text, "")), Summary: clip(oneLine(best.text), 200),
		Rule: "explained in the agent's reports", Confidence: conf, Time: found[len(found)-1].turn.Time, Created: found[0].turn.Time}
	for _, f := range found {
		b.WriteString("- " + clip(oneLine(f.text), 320) + "\n")
		if !slices.Contains(c.Turns, f.turn.Ref) {
			c.Turns = append(c.Turns, f.turn.Ref)
		}
	}
	b.WriteString("\nAs the agent explained it in session " + sessionSlug(s) + ".")
	c.Body = b.String()
	u := schema.URI{Scope: schema.ScopeProject, Path: "patterns/learned-" + sessionSlug(s)}
	c.URI = &u
	return []Candidate{c}
}

// readFinding is a sentence that explains something concrete, with its
// strength; proposals, guesses, questions and change logs are not.
func readFinding(sent string) (finding, bool) {
	lead := reRightLead.FindString(sent)
	sent = strings.TrimSpace(sent[len(lead):])
	if len(sent) < 30 || len(sent) > 400 || strings.HasSuffix(sent, "?") || strings.HasSuffix(sent, ":") {
		return finding{}, false
	}
	// The cues first: most sentences have none, and the rest is dearer.
	strength := 0
	switch {
	case lead != "" && reFindingExplains.MatchString(sent):
		strength = 3 // the person corrected the agent, and it says what is so
	case reFindingNamed.MatchString(sent):
		strength = 2
	case reFindingExplains.MatchString(sent) && !reChangeLog.MatchString(sent):
		strength = 1
	default:
		return finding{}, false
	}
	if len(strings.Fields(sent)) < 7 || !reConcrete.MatchString(sent) || reNarration.MatchString(sent) ||
		reProposal.MatchString(sent) || reInstruction.MatchString(sent) || reHedged.MatchString(sent) ||
		reVague.MatchString(sent) || reAnaphora.MatchString(sent) {
		return finding{}, false
	}
	if lead := reFoundLead.FindString(sent); lead != "" && len(sent)-len(lead) >= 30 {
		sent = sent[len(lead):]
	}
	return finding{text: upperFirst(sent), strength: strength}, true
}

// prose is what the agent said on each request, its closing report
// marked: its last prose before the person spoke again or the session
// ended. What it said on a request the person answered with "no" or
// "still broken" told them nothing true.
type said struct {
	turn    transcript.Turn
	closing bool
}

func prose(s *transcript.Session) []said {
	var out, cur []said
	for _, t := range s.Turns {
		switch {
		case t.IsAgent():
			cur = append(cur, said{turn: t})
		case t.IsPerson() && len(cur) > 0:
			if !reDenied.MatchString(t.Text) {
				cur[len(cur)-1].closing = true
				out = append(out, cur...)
			}
			cur = nil
		}
	}
	if len(cur) > 0 {
		cur[len(cur)-1].closing = true
		out = append(out, cur...)
	}
	return out
}

// withoutRepeats drops a finding said before in the session's reports, or
// already the cause of one of its cases.
func withoutRepeats(found []finding, s *transcript.Session) []finding {
	var causes []string
	if len(found) > 0 {
		for _, c := range extractGotchas(s) {
			if c.Confidence < minConfidence {
				continue // not written: the finding is the only record
			}
			causes = append(causes, normalized(c.Body))
		}
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(found, func(f finding) bool {
		k := normalized(f.text)
		if seen[k] || slices.ContainsFunc(causes, func(c string) bool { return strings.Contains(c, k) }) {
			return true
		}
		seen[k] = true
		return false
	})
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
