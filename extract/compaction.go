package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Claude Code compacts a long conversation into a summary of fixed
// sections, written by the agent's own model: what was asked, the errors
// and how they were fixed, what was chosen, what is pending. Capture reads
// the sections that hold knowledge and leaves out the ones that quote the
// person and the instruction files back.
var (
	reSummarySection = lazyre.New(`^\s*(?:#+\s*)?\**\s*(\d{1,2})\.\s+\**([A-Z][A-Za-z &/-]{3,40}?)\**:`)
	reBullet         = lazyre.New(`^\s*[-*•]\s+(.*)$`)
	reChosen         = lazyre.New(`(?i)\b(chosen over|chose .{2,60} over|rather than|instead of|in favou?r of|preferred over|opted for|decided (?:to|on)|for atomicity|to avoid|so that)\b`)
)

// summarySections splits a compaction summary into its numbered sections
// and their bullets, keyed by section name in lower case.
func summarySections(text string) map[string][]string {
	out := map[string][]string{}
	name, base := "", -1
	for _, line := range strings.Split(text, "\n") {
		if m := reSummarySection.FindStringSubmatch(line); m != nil {
			name, base = strings.ToLower(strings.TrimSpace(m[2])), -1
			continue
		}
		if name == "" {
			continue
		}
		if b := reBullet.FindStringSubmatch(line); b != nil && indentOf(line) <= 6 {
			if base < 0 {
				base = indentOf(line)
			}
			if indentOf(line) <= base || len(out[name]) == 0 {
				out[name] = append(out[name], strings.TrimSpace(b[1]))
			} else {
				// A sub-bullet ("Root cause: …", "Fix: …") stays a line of
				// the bullet above, so its labels can be read.
				out[name][len(out[name])-1] += "\n- " + strings.TrimSpace(b[1])
			}
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case len(out[name]) == 0:
			out[name] = append(out[name], t) // a section of prose
		case indentOf(line) > 4:
			// A nested bullet or a continuation belongs to the bullet above.
			out[name][len(out[name])-1] += " " + strings.TrimLeft(t, "-*• ")
		}
	}
	return out
}

// flat is a bullet with its sub-bullets run into one line.
func flat(b string) string { return strings.ReplaceAll(b, "\n- ", " ") }

func flatAll(bs []string) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = flat(b)
	}
	return out
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }

// compactions are the session's compaction summaries with where they are.
func compactions(s *transcript.Session) []int {
	var out []int
	for i, t := range s.Turns {
		if t.Speaker == transcript.Injected && t.Source == "compaction" && !t.Prior {
			out = append(out, i)
		}
	}
	return out
}

// extractCompactions harvests the knowledge sections of the session's
// compaction summaries: errors with a lesson in their fix, choices made
// over alternatives, and (from the last summary only) pending tasks that
// nothing after the compaction took up.
func extractCompactions(s *transcript.Session) []Candidate {
	at := compactions(s)
	var out []Candidate
	for k, i := range at {
		t := s.Turns[i]
		secs := summarySections(t.Text)
		for _, b := range secs["errors and fixes"] {
			if c, ok := summaryCase(b); ok {
				c.Turns, c.Time = []string{t.Ref}, t.Time
				out = append(out, c)
			}
		}
		for _, b := range secs["problem solving"] {
			if c, ok := summaryDecision(flat(b)); ok {
				c.Turns, c.Time = []string{t.Ref}, t.Time
				c.Body = withPurpose(c.Body, flatAll(secs["primary request and intent"]))
				out = append(out, c)
			}
		}
		if k != len(at)-1 {
			continue // earlier summaries' pending work was the later one's to carry
		}
		for _, b := range secs["pending tasks"] {
			task := plain(strings.TrimSuffix(flat(b), "."))
			if len(subject(task)) < 2 || doneAfter(s, i, task) {
				continue
			}
			out = append(out, Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(task), Body: task,
				Tags: []string{"pending"}, Status: schema.StatusOpen, Turns: []string{t.Ref}, Rule: "pending in the compaction summary; not done after it",
				Confidence: 0.6, Time: t.Time})
		}
	}
	return out
}

// doneAfter reports work taken up after turn i: a later request, an agent
// report or a completed plan step on the same subject, or an edit of a
// file the task names.
func doneAfter(s *transcript.Session, i int, task string) bool {
	subj := subject(task)
	idents := reIdent.FindAllString(task, -1)
	same := func(text string) bool {
		o := subject(text)
		return containment(subj, o) >= 0.5 && shared(subj, o) >= 2
	}
	for _, t := range s.Turns[i+1:] {
		switch {
		case t.IsPerson() && same(t.Text):
			return true
		case t.IsAgent() && reReport.MatchString(t.Text) && (same(t.Text) || mentionsAny(t.Text, idents)):
			return true
		case t.Call != nil:
			for _, p := range t.Call.Plan {
				if p.Done() && same(p.Text) {
					return true
				}
			}
			for _, f := range t.Call.Files {
				if base := lastSegment(f); len(base) > 3 && strings.Contains(task, base) {
					return true
				}
			}
		}
	}
	return false
}

// reIdent finds the code names a task mentions: `ErrConflict`.
var reIdent = lazyre.New("`([^`\\s]{4,60})`")

func mentionsAny(text string, idents []string) bool {
	for _, id := range idents {
		if strings.Contains(text, id) {
			return true
		}
	}
	return false
}

func lastSegment(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	return p[strings.LastIndex(p, "/")+1:]
}
