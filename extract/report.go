package extract

import (
	"path"
	"strings"

	"github.com/cairnmem/cairn/transcript"
)

// How the agent reported a session's end.

// outcome is how the agent reported the session's end: its most
// substantial report after the last request (the reply with the most
// report sentences and points), the first report sentences and up to four
// points of it, without narration, questions or guesses.
func outcome(s *transcript.Session) string {
	lastAsk := -1
	for i, t := range s.Turns {
		if t.IsPerson() && substantive(t.Text) {
			lastAsk = i
		}
	}
	removed := removedFiles(s)
	best, bestScore := "", 0
	for pass := 0; pass < 2 && best == ""; pass++ {
		from := lastAsk + 1
		if pass == 1 {
			from = 0 // nothing reported after the last request: the last report at all
		}
		for i := len(s.Turns) - 1; i >= max(from, 0); i-- {
			t := s.Turns[i]
			if !t.IsAgent() {
				continue
			}
			r, score := report(t.Text)
			if namesRemoved(r, removed) {
				continue // a report about a file the session later removed is stale
			}
			if score > bestScore {
				best, bestScore = r, score
			}
			if pass == 1 && best != "" {
				break
			}
		}
	}
	return best
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

func namesRemoved(text string, removed map[string]bool) bool {
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
