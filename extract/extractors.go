package extract

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// Extractor turns a session into candidates. Each is named and versioned;
// the pair goes into every memory it produces, so a later version can be
// replayed over old sessions.
type Extractor struct {
	Name    string
	Version string
	Run     func(s *Session) []Candidate
}

// Extractors are the deterministic extractors, in the order they run.
var Extractors = []Extractor{
	{"decisions", "1", extractDecisions},
	{"constraints", "1", extractConstraints},
	{"preferences", "1", extractPreferences},
	{"threads", "1", extractThreads},
	{"cases", "1", extractCases},
	{"outcomes", "1", extractOutcome},
	{"session", "1", extractSession},
}

var (
	reQuestion     = regexp.MustCompile(`\?\s*$`)
	reHypothetical = regexp.MustCompile(`(?i)\b(should we|shall we|could we|can we|would you|do you want|if we|if you|whether|maybe|perhaps|might|not sure|haven'?t decided|undecided|or should|wondering|what if|i think we could)\b`)

	reDecisionHuman = regexp.MustCompile(`(?i)\b(we(?:'ve| have)? decided|decided to|let'?s go with|let'?s use|let'?s stick with|let'?s switch to|let'?s keep|we(?:'ll| will) go with|we(?:'ll| will) use|we(?:'re| are) going with|we chose|we picked|we settled on|go with .{2,60} instead of|use .{2,60} instead of|instead of .{2,60}, (?:use|go with)|the decision is|decision:)`)
	reDecisionAgent = regexp.MustCompile(`(?i)\b(we decided|decided to|(?:i|we)(?:'ll| will) go with|going with .{2,60} (?:because|since)|chose .{2,60} over|opted for|settled on|instead of .{2,80} because|rather than .{2,80} because)\b`)

	rePreference = regexp.MustCompile(`(?i)\b(i prefer|i'?d prefer|i'?d rather|i like it when|i like to|i love it when|i hate it when|i hate when|i don'?t like|i dislike|my preference|always use|never use|stop (?:doing|using|adding|writing|putting|making|creating|running)|please (?:always|never|stop|don'?t)|i want you to (?:always|never)|from now on)\b`)
	// "must be" is usually a deduction ("the cache must be cold"); as a rule
	// it takes a participle ("passwords must be hashed").
	reConstraint = regexp.MustCompile(`(?i)(^(?:never|always|don'?t|do not|must|avoid|make sure|ensure|no one should|nobody should)\b|\b(?:must not|must never|must always|must have|must be \w+(?:ed|en)|should never|is not allowed|are not allowed|is forbidden|mustn'?t|never be|always be)\b)`)

	reTodo      = regexp.MustCompile(`\b(?:TODO|FIXME)\b\s*[:-]\s*(.{6,})`)
	reLaterTask = regexp.MustCompile(`(?i)\b(remind me to|follow up on|we still need to|still need to|need to come back to|let'?s revisit|come back to .{2,60} later|(?:let'?s|we(?:'ll| will)|i(?:'ll| will)) (?:do|handle|fix|look at|revisit|deal with|address|tackle|add|write) .{2,80} later|open question:)`)

	reRootCause = regexp.MustCompile(`(?i)\b(root cause|the (?:issue|problem|bug|error) (?:was|is)|caused by|turned out|the reason (?:was|is)|because)\b`)
)

// source sets provenance on candidates.
func source(cs []Candidate, ex string, turns ...Event) []Candidate {
	for i := range cs {
		cs[i].Extractor = ex
		for _, t := range turns {
			if r := t.Ref(); r != "" {
				cs[i].Turns = append(cs[i].Turns, r)
			}
		}
	}
	return cs
}

// keep filters sentences that can stand as a memory.
func keep(s string) bool {
	return len(s) >= 15 && len(s) <= 400 && !reQuestion.MatchString(s) && !reHypothetical.MatchString(s)
}

func extractDecisions(s *Session) []Candidate {
	var out []Candidate
	for _, e := range s.Events {
		if e.Kind != EventText || e.Sidechain || (e.Role == "user" && !e.Human) {
			continue
		}
		re := reDecisionAgent
		if e.Human {
			re = reDecisionHuman
		}
		for _, sent := range sentences(e.Text) {
			if !keep(sent) || !re.MatchString(sent) || rePreference.MatchString(sent) {
				continue
			}
			out = append(out, source([]Candidate{{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(decisionTitle(sent)),
				Body: sent, Tags: []string{"decision"}}}, "decisions", e)...)
		}
	}
	return out
}

var reDecisionLead = regexp.MustCompile(`(?i)^(?:ok(?:ay)?,?\s*|so,?\s*|alright,?\s*)?(?:we(?:'ve| have)? decided (?:to |on |that )?|decided to |let'?s (?:go with |use )?|we(?:'ll| will) (?:go with |use )?|we(?:'re| are) going with |we chose |we picked |the decision is:? |decision: )`)

// decisionTitle drops the "we decided to" lead so the title names the choice.
func decisionTitle(s string) string {
	t := reDecisionLead.ReplaceAllString(strings.TrimSpace(s), "")
	if t == "" {
		return s
	}
	return t
}

func extractConstraints(s *Session) []Candidate {
	var out []Candidate
	for _, e := range s.Prompts() {
		for _, sent := range sentences(e.Text) {
			if !keep(sent) || !reConstraint.MatchString(sent) || rePreference.MatchString(sent) || reDecisionHuman.MatchString(sent) {
				continue
			}
			out = append(out, source([]Candidate{{Kind: schema.KindConstraint, Scope: schema.ScopeProject, Title: titleFrom(sent),
				Body: sent, Tags: []string{"rule"}}}, "constraints", e)...)
		}
	}
	return out
}

func extractPreferences(s *Session) []Candidate {
	var out []Candidate
	for _, e := range s.Prompts() {
		for _, sent := range sentences(e.Text) {
			if !keep(sent) || !rePreference.MatchString(sent) {
				continue
			}
			out = append(out, source([]Candidate{{Kind: schema.KindPreference, Scope: schema.ScopeUser, Title: titleFrom(sent),
				Body: sent, Tags: []string{"preference"}}}, "preferences", e)...)
		}
	}
	return out
}

func extractThreads(s *Session) []Candidate {
	var out []Candidate
	for _, e := range s.Events {
		if e.Kind != EventText || e.Sidechain || (e.Role == "user" && !e.Human) {
			continue
		}
		for _, sent := range sentences(e.Text) {
			switch m := reTodo.FindStringSubmatch(sent); {
			case m != nil:
				out = append(out, source([]Candidate{{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(m[1]),
					Body: sent, Tags: []string{"todo"}, Status: schema.StatusOpen}}, "threads", e)...)
			case e.Human && keep(sent) && reLaterTask.MatchString(sent):
				out = append(out, source([]Candidate{{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(sent),
					Body: sent, Tags: []string{"later"}, Status: schema.StatusOpen}}, "threads", e)...)
			}
		}
	}
	out = append(out, todoThreads(s)...)
	if c, ok := failingAtEnd(s); ok {
		out = append(out, c)
	}
	return out
}

// todoThreads turns the last todo list of the session into threads: what
// is not completed is open; completed items close threads of the same
// subject.
func todoThreads(s *Session) []Candidate {
	var last *Call
	for i := range s.Calls {
		if s.Calls[i].Name() == "TodoWrite" {
			last = &s.Calls[i]
		}
	}
	if last == nil {
		return nil
	}
	items, _ := last.Use.Input["todos"].([]any)
	var out []Candidate
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue // a malformed todo entry
		}
		content, _ := m["content"].(string)
		status, _ := m["status"].(string)
		if strings.TrimSpace(content) == "" {
			continue
		}
		st := schema.StatusOpen
		if status == "completed" {
			st = schema.StatusDone
		}
		c := Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(content), Body: content,
			Tags: []string{"todo"}, Status: st, Extractor: "threads", Tools: []string{last.Use.ToolID}}
		if r := last.Use.Ref(); r != "" {
			c.Turns = []string{r}
		}
		out = append(out, c)
	}
	return out
}

// failingAtEnd is an open thread when the session's last test run failed.
func failingAtEnd(s *Session) (Candidate, bool) {
	for i := len(s.Calls) - 1; i >= 0; i-- {
		c := s.Calls[i]
		cmd := c.Command()
		if cmd == "" || !IsTest(cmd) || c.Result == nil {
			continue
		}
		if !c.Failed() {
			return Candidate{}, false
		}
		return Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom("Tests still failing: `" + shortCmd(cmd) + "`"),
			Body: fmt.Sprintf("The session ended with `%s` failing (exit %d):\n\n%s", cmd, c.Exit(), errorExcerpt(c.Result.Output)),
			Tags: []string{"tests", "failing"}, Status: schema.StatusOpen, Extractor: "threads", Tools: []string{c.Use.ToolID}}, true
	}
	return Candidate{}, false
}

var (
	reErrorLine = regexp.MustCompile(`(?i)(error|fail|panic|undefined|expected|cannot|not found|exception|traceback|denied|\bgot\b.*\bwant\b|\.\w+:\d+:)`)
	// reErrorNoise are lines that match but say nothing: go test's closing
	// FAIL, the exit code the result already shows.
	reErrorNoise = regexp.MustCompile(`(?i)^(FAIL|FAIL\s+\S+\s+[\d.]+s|exit code \d+|error: process completed with exit code \d+)$`)
)

// errorExcerpt keeps the lines of an output that say what went wrong.
func errorExcerpt(out string) string {
	var picked []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && reErrorLine.MatchString(l) && !reErrorNoise.MatchString(l) {
			picked = append(picked, l)
		}
		if len(picked) == 3 {
			break
		}
	}
	if len(picked) == 0 {
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				picked = append(picked, l)
			}
			if len(picked) == 2 {
				break
			}
		}
	}
	s := strings.Join(picked, "\n")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// shortCmd keeps a command readable in a title.
func shortCmd(cmd string) string {
	cmd = strings.Join(strings.Fields(cmd), " ")
	if i := strings.IndexAny(cmd, "|;&>"); i > 0 {
		cmd = strings.TrimSpace(cmd[:i])
	}
	if len(cmd) > 60 {
		cmd = cmd[:60] + "…"
	}
	return cmd
}

// extractCases finds error → fix → passing run: a command that failed,
// files edited, and the same command passing afterwards.
func extractCases(s *Session) []Candidate {
	var out []Candidate
	used := map[int]bool{}
	for i, c := range s.Calls {
		cmd := c.Command()
		if cmd == "" || !c.Failed() || used[i] {
			continue
		}
		var edited []string
		for j := i + 1; j < len(s.Calls); j++ {
			d := s.Calls[j]
			edited = append(edited, d.Files()...)
			if shortCmd(d.Command()) != shortCmd(cmd) {
				continue
			}
			if d.Failed() {
				used[j] = true // still failing: keep looking for the fix
				continue
			}
			if len(edited) == 0 {
				break // passed without a change: flaky, not a case
			}
			symptom := errorExcerpt(c.Result.Output)
			first := strings.SplitN(symptom, "\n", 2)[0]
			body := fmt.Sprintf("Symptom: `%s` failed (exit %d):\n\n%s\n", cmd, c.Exit(), indent(symptom))
			var evidence []Event
			if why := rootCause(s, c.Use, d.Use); why.Text != "" {
				body += "\nRoot cause: " + why.Text + "\n"
				evidence = append(evidence, why)
			}
			body += fmt.Sprintf("\nFix: edited %s.\n\nVerified: `%s` passed afterwards.", strings.Join(uniq(s, edited), ", "), shortCmd(d.Command()))
			cand := Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom("`" + shortCmd(cmd) + "` failed: " + first),
				Body: body, Tags: []string{"case"}, Tools: []string{c.Use.ToolID, d.Use.ToolID}}
			out = append(out, source([]Candidate{cand}, "cases", append([]Event{c.Use}, evidence...)...)...)
			for k := i; k <= j; k++ {
				used[k] = true
			}
			break
		}
	}
	return out
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

func uniq(s *Session, files []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		f = s.rel(f)
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// rootCause is the agent's explanation between a failure and its fix.
func rootCause(s *Session, from, to Event) Event {
	inside := false
	for _, e := range s.Events {
		if e.ToolID == from.ToolID && e.Kind == EventToolUse {
			inside = true
			continue
		}
		if e.ToolID == to.ToolID && e.Kind == EventToolUse {
			break
		}
		if !inside || e.Kind != EventText || e.Role != "assistant" {
			continue
		}
		for _, sent := range sentences(e.Text) {
			if len(sent) >= 20 && len(sent) <= 300 && reRootCause.MatchString(sent) {
				e.Text = sent
				return e
			}
		}
	}
	return Event{}
}
