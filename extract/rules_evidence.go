package extract

import (
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// Evidence around a person's rule that the sentence alone does not hold:
// how the agent took it, what the agent had asked, how hard it was said.

var (
	// reConceded opens an agent's reply that takes the person's words as a
	// correction of how it works: "You're right, sorry", "Fair enough".
	// "Got it" and "Understood" open the reply to any task, so they do not.
	reConceded = lazyre.New(`(?i)^\W*(?:you'?re (?:absolutely |quite )?right|you are (?:absolutely |quite )?right|sorry|apologies|my apologies|i apologi[sz]e|my (?:bad|mistake)|fair(?: enough| point)?|good catch)\b`)
	// reFrustrated marks a person's sentence said in exasperation: the
	// agent did it again, so the rule matters to them.
	reFrustrated = lazyre.New(`(?i)\b(?:f+s|wtf|fuck\w*|for (?:fuck'?s|god'?s|christ'?s) sake|seriously|how many times)\b`)
	// reAddressed names the person or the agent: a rule about working
	// together says who does what ("give me", "ask me", "you keep").
	reAddressed = lazyre.New(`(?i)\b(?:i|i'?m|i'?d|me|my|we|us|our|you|your|u|ur)\b`)
)

// conceded reports an agent's reply that opens by taking the person's
// words as a correction.
func conceded(reply string) bool {
	return reConceded.MatchString(strings.TrimSpace(reply))
}

// shouted reports a sentence written in capitals: at least three words
// and nearly all its letters upper case.
func shouted(s string) bool {
	upper, letters := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return len(strings.Fields(s)) >= 3 && letters >= 10 && upper*10 >= letters*9
}

// unshout writes a shouted sentence as a sentence: lower case, "I" kept.
func unshout(s string) string {
	if !shouted(s) {
		return s
	}
	ws := strings.Fields(strings.ToLower(s))
	for i, w := range ws {
		if w == "i" || strings.HasPrefix(w, "i'") {
			ws[i] = "I" + w[1:]
		}
	}
	return strings.Join(ws, " ")
}

// turnContext is what the agent said around each of the person's turns:
// the question it had just asked, and how it replied.
type turnContext struct {
	question string // the question sentences closing the agent's turn before
	reply    string // the agent's first words after
}

func contexts(s *transcript.Session) map[string]turnContext {
	out := map[string]turnContext{}
	var lastAgent string
	pending := ""
	for _, t := range s.Turns {
		switch {
		case t.IsAgent():
			if pending != "" {
				c := out[pending]
				c.reply = t.Text
				out[pending] = c
				pending = ""
			}
			lastAgent = t.Text
		case t.IsPerson():
			out[t.Ref] = turnContext{question: endingQuestion(lastAgent)}
			lastAgent, pending = "", t.Ref
		}
	}
	return out
}

// endingQuestion is the question sentences of a turn's last paragraph,
// when the turn ends on a question.
func endingQuestion(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasSuffix(t, "?") {
		return ""
	}
	if i := strings.LastIndex(t, "\n\n"); i >= 0 {
		t = t[i+2:]
	}
	var qs []string
	for _, sent := range splitSentences(oneLine(t)) {
		if strings.HasSuffix(strings.TrimSpace(sent), "?") {
			qs = append(qs, sent)
		}
	}
	return strings.Join(qs, " ")
}

// answersQuestion reports a rule that takes up the agent's question: it
// shares a content word with it. "Never hand-edit generated files" after
// "Do you have Docker available?" corrects the agent; it does not answer.
func answersQuestion(rule, question string) bool {
	return question != "" && shared(subject(rule), subject(question)) > 0
}

// resent reports two turns that are one prompt sent twice (the second
// often finishes the first): that is not saying it again.
func resent(pa, pb map[string]bool) bool {
	return len(pa) > 2 && len(pb) > 2 && containment(pa, pb) >= 0.8
}
