package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// What the person asked for in a session: the requests with substance,
// the one that set the work going, the ones that led to changes.

// requests are what the person asked for: said turns with substance,
// not "yes", "continue" or "what model are you".
func requests(s *transcript.Session) []transcript.Turn {
	var out []transcript.Turn
	for _, t := range s.Said() {
		if substantive(t.Text) {
			out = append(out, t)
		}
	}
	return out
}

// substantive reports a request with something in it to remember.
// A request that is only asides ("try again, the same thing") has none.
func substantive(text string) bool {
	t := statement(text)
	if strings.TrimSpace(withoutAsides(t)) == "" {
		return false
	}
	if reSmallTalk.MatchString(t) || len(t) < 120 && reResume.MatchString(t) {
		return false
	}
	return len(subject(t)) >= 3
}

// ask is a request in a line: its first sentences, not the details.
func ask(text string) string {
	t := withoutAsides(statement(text))
	if r := firstSentences(t, 140); r != "" {
		return r
	}
	return clip(oneLine(t), 140)
}

// reAside is a sentence that steers one exchange rather than saying what
// the work is: "ask me if something is not clear", "I didn't mean to
// interrupt you, continue", "try again, the same thing". A summary that
// repeats it reads as a standing instruction.
var reAside = lazyre.New(`(?i)^(?:and |also |please |pls |but )?(?:(?:ask|tell|ping) me (?:if|when|whether|before)\b|let me know (?:if|when|whether|what)\b|feel free to\b|i didn'?t mean to (?:interrupt|stop|cancel|press)|(?:sorry|oops),? (?:i|wrong)\b|(?:try|do|run) (?:it |that |this )?again\b|(?:the )?same (?:thing|error|issue|problem)(?: again)?\W*$|(?:don'?t|do not) (?:make|change|edit|write|touch) (?:any(?:thing)?|changes|code|files)(?: \w+)? (?:yet|for now|right now)\b)`)

// withoutAsides is a request without its aside sentences; a request that
// is nothing else comes back empty.
func withoutAsides(text string) string {
	var kept []string
	dropped := false
	for _, line := range strings.Split(text, "\n") {
		var keep []string
		for _, sent := range splitSentences(line) {
			if reAside.MatchString(strings.TrimSpace(sent)) {
				dropped = true
				continue
			}
			keep = append(keep, strings.TrimSpace(sent))
		}
		kept = append(kept, strings.Join(keep, " "))
	}
	if !dropped {
		return text
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// mainRequest is the request that set the session's work going: the
// last one before the first file was written, else the first that is not
// a question.
func mainRequest(s *transcript.Session, asked []transcript.Turn) transcript.Turn {
	var firstEdit = -1
	for i, t := range s.Turns {
		if t.Call != nil && len(t.Call.Files) > 0 && !t.Prior {
			firstEdit = i
			break
		}
	}
	pick := -1
	for i, t := range asked {
		if strings.HasSuffix(strings.TrimSpace(t.Text), "?") || reQuestionLead.MatchString(statement(t.Text)) {
			continue
		}
		if pick < 0 {
			pick = i
		}
		if firstEdit >= 0 && turnIndex(s, t) < firstEdit {
			pick = i
		}
	}
	if pick < 0 {
		return asked[0]
	}
	return asked[pick]
}

func turnIndex(s *transcript.Session, t transcript.Turn) int {
	for i := range s.Turns {
		if s.Turns[i].Ref == t.Ref && s.Turns[i].Line == t.Line {
			return i
		}
	}
	return len(s.Turns)
}

// workRequests are the requests that set work going: each followed by a
// change to a file before the next one. With none, the requests that are
// not questions; with none of those either, all of them.
func workRequests(s *transcript.Session, asked []transcript.Turn) []transcript.Turn {
	index := map[string]bool{}
	answer := answers(s)
	for _, t := range asked {
		// "the first option sounds good" answers the agent's question; it
		// is not what the session was asked to do.
		if !answer[t.Ref] || len(t.Text) >= 80 {
			index[t.Ref] = true
		}
	}
	var out []transcript.Turn
	var cur *transcript.Turn
	for i := range s.Turns {
		t := s.Turns[i]
		switch {
		case t.IsPerson() && index[t.Ref]:
			cur = &s.Turns[i]
		case cur != nil && t.Call != nil && len(t.Call.Files) > 0:
			out = append(out, *cur)
			cur = nil
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, t := range asked {
		if !strings.HasSuffix(strings.TrimSpace(t.Text), "?") && !reQuestionLead.MatchString(statement(t.Text)) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return out
	}
	return asked
}
