package extract

import (
	"strconv"
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
	t := withoutAsides(statement(withoutTags(text)))
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

// asideCues are words every aside holds: most requests have none of
// them, and looking for them is cheaper than cutting every request into
// sentences (substantive runs on each request several times).
var asideCues = []string{"ask me", "tell me", "ping me", "let me know", "feel free", "mean to", "sorry", "oops", "again", "same", "don't", "dont", "do not"}

func hasAsideCue(text string) bool {
	t := strings.ToLower(text)
	for _, c := range asideCues {
		if strings.Contains(t, c) {
			return true
		}
	}
	return false
}

// withoutAsides is a request without its aside sentences; a request that
// is nothing else comes back empty.
func withoutAsides(text string) string {
	if !hasAsideCue(text) {
		return text
	}
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
		// "the first option sounds good" answers the agent's question, and
		// "1 yes fix 3 add tests" the agent's findings: neither is what the
		// session was asked to do.
		if !answer[t.Ref] && !byNumber(t.Text) || len(t.Text) >= 80 && !byNumber(t.Text) {
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

// reGoAhead is a request that approves what came before instead of saying
// what it is: "implement this", "now implement the plan", "make this
// happen".
var reGoAhead = lazyre.New(`(?i)^(?:(?:yes|yep|ok(?:ay)?|great|perfect|good|sure|cool|alright|now|then|so)[,.!]?\s+)*(?:please\s+|let'?s\s+|go ahead and\s+)?(?:implement|do|make|build|apply|execute|start(?: on)?|proceed with|go ahead with|carry out)\s+(?:it|this|that|these|those|them|the plan|this plan|that plan|the changes?|the fix|as planned|what you (?:said|proposed|suggested|described))(?:\s+(?:happen|so|now))?\b`)

var reNoNeed = lazyre.New(`(?i)^(?:but |and )?(?:don'?t|do not|no need to) (?:bother|worry|run|test|check)\b`)

// goAhead reports a request whose first sentence only approves what came
// before ("Yes, implement this, don't bother running the linter"); one
// that goes on to say what it wants is its own request.
func goAhead(text string) bool {
	first, _, _ := strings.Cut(statement(text)+"\n", "\n")
	if sents := splitSentences(first); len(sents) > 0 {
		first = sents[0]
	}
	loc := reGoAhead.FindStringIndex(first)
	if loc == nil {
		return false
	}
	rest := strings.Trim(first[loc[1]:], ",.!;: ")
	return rest == "" || reNoNeed.MatchString(rest) || reAside.MatchString(rest)
}

// meant is what a request asks for: its own words, or for a go-ahead the
// title of the plan it approves, else the person's request before it.
func meant(s *transcript.Session, t transcript.Turn) string {
	if !goAhead(t.Text) {
		return t.Text
	}
	at := turnIndex(s, t)
	if strings.Contains(strings.ToLower(t.Text), "plan") {
		// "Now implement the plan": the last plan, however long the talk
		// about it was.
		for i := at - 1; i >= 0; i-- {
			if u := s.Turns[i]; u.IsPlan() || u.IsAgent() && rePlanHeading.MatchString(u.Text) {
				if title := planTitle(u.Text); title != "" {
					return title
				}
			}
		}
	}
	agentSpoke := false
	for i := at - 1; i >= 0; i-- {
		u := s.Turns[i]
		switch {
		case u.IsPlan() || u.IsAgent() && !agentSpoke:
			if title := planTitle(u.Text); title != "" && (u.IsPlan() || rePlanHeading.MatchString(u.Text)) {
				return title
			}
			agentSpoke = agentSpoke || u.IsAgent()
		case u.IsPerson() && substantive(u.Text) && !goAhead(u.Text):
			return u.Text
		}
	}
	return t.Text
}

// planTitle is a plan's top heading, when it names something.
func planTitle(text string) string {
	m := reTitleHeading.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	h := strings.TrimSpace(strings.Trim(m[1], "*"))
	if reGenericSec.MatchString(h) || len(subject(h)) < 2 {
		return ""
	}
	return rePlanLead.ReplaceAllString(h, "")
}

var reReference = lazyre.New(`(?m)^\s*-\s+(\S+\.\w+)\s*$`)

// references are the files the person attached to a request, as the
// harness notes them beside it ("The user provided the following
// references: - path"), relative to the project.
func references(s *transcript.Session, t transcript.Turn) []string {
	var out []string
	for _, u := range s.Turns[turnIndex(s, t)+1:] {
		if u.Ref != t.Ref || u.Speaker != transcript.Injected {
			break
		}
		if !strings.HasPrefix(strings.TrimSpace(u.Text), "The user provided the following references") {
			continue
		}
		for _, m := range reReference.FindAllStringSubmatch(u.Text, 3) {
			out = append(out, rel(s, m[1]))
		}
	}
	return out[:min(2, len(out))]
}

// byNumber reports a reply that goes through a numbered list by number:
// "1 yes we should fix 2 yes 4 ok that works".
func byNumber(text string) bool {
	t := strings.TrimSpace(text)
	locs := rePersonPick.FindAllStringSubmatchIndex(t, -1)
	if len(locs) < 2 || locs[0][0] > 0 {
		return false
	}
	n, last := 0, 0
	for _, l := range locs {
		k, _ := strconv.Atoi(t[l[2]:l[3]])
		if k > last && k <= 20 {
			n, last = n+1, k
		}
	}
	return n >= 2
}

// reTag is an XML-like tag: what an issue tracker or a tool wraps pasted
// content in (<issue identifier="TMT-12">, <title>).
var reTag = lazyre.New(`</?([a-zA-Z][\w-]*)((?:\s+[\w-]+="[^"]*")*)\s*/?>`)

// withoutTags takes out the tags that wrap pasted content: those with
// attributes or a closing tag. "Vec<String>" keeps its type parameter.
func withoutTags(text string) string {
	if !strings.Contains(text, "</") && !strings.Contains(text, "=\"") {
		return text
	}
	out := reTag.ReplaceAllStringFunc(text, func(tag string) string {
		m := reTag.FindStringSubmatch(tag)
		switch {
		case strings.HasPrefix(tag, "</"):
			return ". " // the end of a title or a field ends its sentence
		case m[2] != "" || strings.Contains(text, "</"+m[1]+">"):
			return " "
		}
		return tag
	})
	return reSpaces.ReplaceAllString(reStops.ReplaceAllString(out, "$1"), " ")
}

// reStops are the full stops a closing tag put after one already there.
var (
	reStops  = lazyre.New(`([.!?:])(?:\s*\.)+`)
	reSpaces = lazyre.New(`[ \t]{2,}`)
)
