package extract

import (
	"path"
	"strings"

	"github.com/cairnmem/cairn/transcript"
)

// How the agent reported a session's end.

// outcome is how the agent reported the session's end: the report in its
// last reply, when that reply came after the last request and the last
// change. A report from the middle of the work is stale by the end, and
// no report is better than a stale one.
func outcome(s *transcript.Session) string {
	last := -1
	for i, t := range s.Turns {
		switch {
		case t.Prior || t.Sidechain:
		case t.IsAgent():
			last = i
		case t.IsPerson() && substantive(t.Text), t.Call != nil && len(t.Call.Files) > 0:
			last = -1 // work after the last reply: it does not tell the end
		}
	}
	if last < 0 {
		return ""
	}
	r, score := report(s.Turns[last].Text)
	if score == 0 || namesRemoved(r, removedFiles(s)) {
		return ""
	}
	return r
}

// report reads an agent reply as a report: what it says was done, and how
// much of a report it is (0 when it is none).
func report(text string) (string, int) {
	var kept []string
	n := 0
	for _, sent := range sentences(firstParagraphs(text)) {
		sent = strings.TrimSuffix(sent, ":")
		if strings.HasSuffix(sent, "?") || reNarration.MatchString(sent) || reSpeculate.MatchString(sent) || reSkillLead.MatchString(sent) || len(sent) < 20 {
			continue
		}
		kept = append(kept, sent)
		n += len(sent)
		if n > 240 || len(kept) == 2 {
			break
		}
	}
	var points []string
	for _, m := range rePoint.FindAllStringSubmatch(text, -1) {
		p := plain(m[1])
		if len(p) >= 12 && len(p) <= 200 && reReport.MatchString(p) {
			points = append(points, clip(p, 160))
		}
		if len(points) == 4 {
			break
		}
	}
	head := strings.Join(kept, " ")
	score := len(points)
	if reReport.MatchString(head) {
		score += 2
	}
	if score < 2 || len(head)+len(strings.Join(points, "")) < 40 {
		return "", 0
	}
	out := head
	if len(points) > 0 {
		out = strings.TrimSpace(out + "\n- " + strings.Join(points, "\n- "))
	}
	return out, score
}

func namesRemoved(text string, removed map[string]int) bool {
	for f := range removed {
		if base := lastSegment(f); len(base) > 4 && strings.Contains(text, strings.TrimSuffix(base, path.Ext(base))) {
			return true
		}
	}
	return false
}

// firstParagraphs is a reply's text before its first list, for the lead
// sentences of a report.
func firstParagraphs(text string) string {
	if loc := rePoint.FindStringIndex(text); loc != nil {
		return text[:loc[0]]
	}
	return text
}
