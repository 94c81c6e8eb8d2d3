package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// extractWhere keeps the answer to a person's question about where
// something lives in the project ("where is the generated code?"), when
// the agent's answer names paths the session itself saw: the next
// session need not search again. A vague answer, a guess or one without
// a path is left out; so is the agent's own exploring.
func extractWhere(s *transcript.Session) []Candidate {
	var out []Candidate
	seen := map[string]bool{} // paths already kept: a second ask repeats them
	var haystack string
	for i, t := range s.Turns {
		if !t.IsPerson() || t.Form == transcript.Pasted {
			continue
		}
		q, ok := whereQuestion(t.Text)
		if !ok {
			continue
		}
		answer := lastAnswer(s, i)
		if answer.Text == "" {
			continue
		}
		if haystack == "" {
			haystack = sessionSeen(s)
		}
		c, ok := whereCandidate(s, q, t, answer, haystack)
		if !ok || seen[c.Summary] {
			continue
		}
		seen[c.Summary] = true
		out = append(out, c)
	}
	return out
}

// lastAnswer is the agent's last words after the person's turn at i,
// before the person speaks again: its conclusion, not the "let me look"
// on the way. A short demand for paths ("give me file paths") carries
// the question over to the reply after it.
func lastAnswer(s *transcript.Session, i int) transcript.Turn {
	var last transcript.Turn
	for _, t := range s.Turns[i+1:] {
		if t.IsPerson() {
			if last.Text == "" || len(t.Text) <= 60 && reWantPaths.MatchString(t.Text) {
				last = transcript.Turn{}
				continue
			}
			break
		}
		if t.IsAgent() {
			last = t
		}
	}
	return last
}

// reWantPaths is a person asking again for the paths an answer lacked.
var reWantPaths = lazyre.New(`(?i)\bfile\s*paths?\b|\bthe paths\b|\bwhich files?\b|\bwhere exactly\b`)

// whereCandidate is the memory for one question and its answer, when the
// answer names, up front and without hedging, paths the session saw.
func whereCandidate(s *transcript.Session, q whereAsk, asked, answer transcript.Turn, haystack string) (Candidate, bool) {
	lead := answerLead(answer.Text)
	if lead == "" || reHedge.MatchString(lead) {
		return Candidate{}, false
	}
	var paths []string
	for _, p := range leadPaths(lead) {
		if !isURL(p) {
			p = rel(s, p)
		}
		if seenIn(haystack, p, s.Cwd) && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	// A file name next to a directory is what lives there, not where.
	if slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "/") }) {
		paths = slices.DeleteFunc(paths, func(p string) bool { return !strings.Contains(p, "/") })
	}
	if len(paths) == 0 || len(paths) > 4 {
		return Candidate{}, false
	}
	subj := q.subject
	if !specific(subj) {
		subj = answerSubject(lead)
	}
	if subj == "" && !q.pronoun() {
		subj = qualified(q.subject, paths)
	}
	if subj == "" {
		return Candidate{}, false // which thing was meant is unknown
	}
	title := fmt.Sprintf("Where %s %s", subj, q.verb(subj))
	if q.url {
		title = "URL of " + subj
	}
	sentence := oneLine(plain(lead))
	if s.Cwd != "" {
		sentence = strings.ReplaceAll(sentence, s.Cwd+"/", "")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Asked: %s\n\n%s\n", clip(oneLine(asked.Text), 200), clip(sentence, 400))
	for _, p := range paths {
		fmt.Fprintf(&b, "\n- `%s`", p)
	}
	return Candidate{Kind: schema.KindPattern, Scope: schema.ScopeProject, Title: titleFrom(title),
		Summary: strings.Join(paths, ", "), Body: strings.TrimSpace(b.String()), Tags: []string{"location"},
		Turns: []string{asked.Ref, answer.Ref}, Rule: "the person asked where; the answer names paths the session saw",
		Confidence: 0.8, Time: answer.Time}, true
}

// reHedge is an answer that guesses or found nothing.
var reHedge = lazyre.New(`(?i)\b(?:probably|likely|might|maybe|perhaps|i think|i believe|not sure|guess|should be|could be|` +
	`i don'?t see|can'?t find|couldn'?t find|no such|doesn'?t exist|not found|no generated|there is no|there'?s no)\b`)

// answerLead is what an answer opens with: its first prose line's first
// sentences, or the list of labelled paths it is ("- Proto: `a`").
func answerLead(text string) string {
	var lines []string
	for l := range proseLines(text) {
		t := strings.TrimSpace(l)
		if t == "" {
			if len(lines) > 0 {
				break
			}
			continue
		}
		if len(lines) > 0 && !reListItem.MatchString(t) {
			break
		}
		lines = append(lines, t)
		if !reListItem.MatchString(t) {
			break
		}
	}
	if len(lines) == 1 {
		// A first sentence that is only a path leads into the next.
		ss := splitSentences(lines[0])
		lead := ss[0]
		if len(strings.Fields(lead)) <= 4 || len(ss) > 1 && reGoesOn.MatchString(ss[1]) {
			if len(ss) > 1 {
				lead += ss[1]
			} else if next := sentences(strings.TrimPrefix(strings.TrimSpace(text), lines[0])); len(next) > 0 {
				lead += " " + next[0]
			}
		}
		return strings.TrimSpace(lead)
	}
	return strings.Join(lines, "\n")
}

// reGoesOn is a sentence still about the path before it: "That's where
// the stubs live."
var reGoesOn = lazyre.New(`(?i)^\s*(?:that|this|it)(?:'s|’s|\s+is|\s+holds|\s+has|\s+contains)\b`)

var reListItem = lazyre.New(`^(?:[-*•]|\d+[.)])\s`)

// rePathToken is a path or URL as an answer writes it: in backticks, or
// bare with a slash or a file extension.
var rePathToken = lazyre.New("`([^`\\s]+)`|(?:^|[\\s(])((?:https?://|~?/|\\.{0,2}/?)[\\w.@~-]+(?:/[\\w.@~-]*)+|[\\w-]+(?:/[\\w.-]+)*\\.[a-z]{1,6})(?:[\\s),.:;]|$)")

// reLineSuffix is a line reference after a path (models.go:17-25).
var reLineSuffix = lazyre.New(`(?::\d+(?:-\d+)?)+$`)

// leadPaths lists the path-like tokens of an answer's lead.
func leadPaths(lead string) []string {
	var out []string
	for _, m := range rePathToken.FindAllStringSubmatch(lead, -1) {
		p := m[1] + m[2]
		p = strings.TrimRight(reLineSuffix.ReplaceAllString(p, ""), ".,:;")
		if pathLike(p) {
			out = append(out, p)
		}
	}
	return out
}

var reFileExt = lazyre.New(`^[\w.-]*[\w-]\.[a-z][a-z0-9]{0,5}$`)

// pathLike tells a path or URL from other code: a slash between names,
// or a file name with a short lower-case extension.
func pathLike(p string) bool {
	if isURL(p) {
		return true
	}
	if strings.ContainsAny(p, "(){}<>=$*,\"'") || strings.Count(p, ".") > 3 && !strings.Contains(p, "/") {
		return false
	}
	if strings.Contains(strings.Trim(p, "/"), "/") {
		return true
	}
	return reFileExt.MatchString(p)
}

func isURL(p string) bool { return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") }

// sessionSeen is everything the session's tools touched or showed: a
// path the answer names must be among it.
func sessionSeen(s *transcript.Session) string {
	var b strings.Builder
	for _, c := range s.Calls() {
		b.WriteString(c.Command)
		b.WriteByte('\n')
		for _, v := range c.Input {
			if str, ok := v.(string); ok {
				b.WriteString(str)
				b.WriteByte('\n')
			}
		}
		for _, f := range c.Files {
			b.WriteString(f)
			b.WriteByte('\n')
		}
		b.WriteString(c.Output)
		b.WriteByte('\n')
	}
	return b.String()
}

// seenIn reports a path (relative to cwd, or absolute) the session's
// tools saw.
func seenIn(haystack, p, cwd string) bool {
	p = strings.TrimRight(p, "/")
	if len(p) < 4 {
		return false
	}
	return strings.Contains(haystack, p) || cwd != "" && !isAbs(p) && strings.Contains(haystack, cwd+"/"+p)
}
