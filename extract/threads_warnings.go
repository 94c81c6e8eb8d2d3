package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A warning the project's tools kept printing while the work went on, and
// that the agent's last reply leaves to be dealt with, is open work the
// next session walks into: the runs succeeded, so nothing else records it.
// Both are needed: a warning printed once is often noise, and a reply that
// mentions "a warning" names no particular one.

var (
	// reWarnLine is a tool's own warning or error line.
	reWarnLine = lazyre.New(`(?im)^[ \t]*(?:error|warning|warn)[ \t]*:[ \t]*(\S.{10,198})$`)
	reWarnWord = lazyre.New(`(?i)\b(?:warn(?:s|ed|ings?)?|errors?)\b`)
	// reLeaveFor is advice that something still has to be done.
	reLeaveFor = lazyre.New(`(?i)\b(?:address|resolve|fix|clean(?:ed)? up|look into|investigate|still|remains?|ensure|needs? to)\b`)
	// reSettled is a reply saying the warning is dealt with or harmless.
	reSettled = lazyre.New(`(?i)\b(?:fixed|resolved|silenced|removed|no longer|gone|harmless|benign|safe to ignore|can be ignored|expected)\b`)
)

// warningRuns is one warning line and the successful runs that printed it.
type warningRuns struct {
	line, text string // the whole line; what it says, without "ERROR:"
	next       string // the line after it, often the tool's advice
	calls      []*transcript.Call
}

// repeatedWarnings are the warning lines printed by two or more runs that
// otherwise succeeded.
func repeatedWarnings(s *transcript.Session) []warningRuns {
	byLine := map[string]*warningRuns{}
	var order []string
	for _, c := range s.Calls() {
		if c.Status != transcript.OK {
			continue
		}
		seen := map[string]bool{}
		for _, loc := range reWarnLine.FindAllStringSubmatchIndex(c.Output, 20) {
			line := strings.Join(strings.Fields(c.Output[loc[0]:loc[1]]), " ")
			if seen[line] {
				continue
			}
			seen[line] = true
			w, ok := byLine[line]
			if !ok {
				w = &warningRuns{line: line, text: strings.TrimSpace(c.Output[loc[2]:loc[3]]), next: lineAfter(c.Output, loc[1])}
				byLine[line] = w
				order = append(order, line)
			}
			w.calls = append(w.calls, c)
		}
	}
	var out []warningRuns
	for _, l := range order {
		if w := byLine[l]; len(w.calls) >= 2 {
			out = append(out, *w)
		}
	}
	return out
}

// unresolvedWarnings are threads for repeated warnings the agent's last
// reply says are still to be dealt with.
func unresolvedWarnings(s *transcript.Session) []Candidate {
	last := lastReply(s)
	if last == nil {
		return nil
	}
	var out []Candidate
	var warned []warningRuns
	read := false
	for _, sent := range sentences(last.Text) {
		if !reWarnWord.MatchString(sent) || !reLeaveFor.MatchString(sent) || reSettled.MatchString(sent) || strings.HasSuffix(sent, "?") {
			continue
		}
		if !read { // reading every run's output is the costly part: only for a reply that asks it
			warned, read = repeatedWarnings(s), true
		}
		for _, w := range warned {
			if sharedLongWords(sent, w.line) < 2 {
				continue
			}
			lastRun := w.calls[len(w.calls)-1]
			out = append(out, Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject,
				Title: titleFrom("Unresolved: " + w.text),
				Body: fmt.Sprintf("%d runs printed it, and the session ended with it still there:\n\n    %s\n\nThe agent's last reply: %s",
					len(w.calls), strings.TrimSpace(w.line+"\n    "+w.next), statement(sent)),
				Tags: []string{"warning"}, Status: schema.StatusOpen, Turns: []string{last.Ref}, Tools: []string{lastRun.ID},
				Rule: "a warning repeated by the tools, left open by the agent's last reply", Confidence: 0.7, Time: last.Time})
			return out // one per session: the reply's first such sentence
		}
	}
	return out
}

// lastReply is the agent's last reply when nothing the person said came
// after it.
func lastReply(s *transcript.Session) *transcript.Turn {
	for i := len(s.Turns) - 1; i >= 0; i-- {
		t := s.Turns[i]
		if t.IsPerson() {
			return nil
		}
		if t.IsAgent() {
			return &s.Turns[i]
		}
	}
	return nil
}

// lineAfter is the line that follows offset end, when it reads as more of
// the same message rather than another warning or a blank.
func lineAfter(out string, end int) string {
	rest := strings.TrimPrefix(out[end:], "\r")
	rest = strings.TrimPrefix(rest, "\n")
	line, _, _ := strings.Cut(rest, "\n")
	line = strings.TrimSpace(line)
	if len(line) < 10 || len(line) > 160 || reWarnLine.MatchString(line) {
		return ""
	}
	return line
}
