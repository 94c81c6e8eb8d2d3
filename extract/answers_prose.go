package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// maxProseChoices bounds the choices one session yields: a session that
// picks on every turn is exploring, and its last picks are what stayed.
const maxProseChoices = 3

// reQuestionNo is a question's number, not its subject: "Question 3".
var reQuestionNo = lazyre.New(`(?i)^\s*(?:question|q)\s*\d+\s*$`)

// reWhichWhat names what a question chooses: "Which test style do we keep".
var reWhichWhat = lazyre.New(`(?i)\bwhich ([a-z]+(?: [a-z]+)?) (?:do|does|should|would|will|is|are)\b`)

// reFollowUp corrects or complains about the work on a request ("u didnt
// actually fetch changes", "no, in this branch"): the request is still
// the one before it.
var reFollowUp = lazyre.New(`(?i)^(?:no|nope|nah|not|wrong|still|(?:u|you) (?:didn'?t|did not|forgot|missed)|(?:that|this|it)(?:'s| is) (?:not|still|wrong))\b`)

// proseChoice is a person's pick among alternatives the agent laid out
// in prose, with the offer it answered.
type proseChoice struct {
	offer  offer
	chosen []int // per question: the option picked, or -1
	reply  transcript.Turn
	agent  transcript.Turn
	quote  bool // the person's words carry the choice (not a bare "2")
	at     int  // the reply's index in the session's turns
	// request is what the person had asked for when the agent offered
	// the alternatives: what the choice was about.
	request string
	// again is the person refusing a not-chosen alternative the agent
	// offered again later: the pick is how they want it, not a one-off.
	again refusal
}

// proseChoices pairs each agent turn that offers alternatives with the
// person's next typed prompt, and keeps the replies that clearly pick one.
func proseChoices(s *transcript.Session) []proseChoice {
	var out []proseChoice
	var last *transcript.Turn
	open := false           // the last pick awaits the agent's next offer
	picks := map[int]bool{} // the turns that picked
	for at, t := range s.Turns {
		switch {
		case t.IsAgent():
			a := t
			last = &a
		case t.IsPerson():
			agent := last
			last = nil
			if agent == nil || t.Form == transcript.Pasted {
				continue
			}
			o, ok := parseOffer(agent.Text)
			// The agent offering kinds of what was just chosen, or the
			// person going back on it, makes that pick a step of an
			// exploration, not where it ended.
			if open && (ok && refines(o, out[len(out)-1]) || turnsDown(t.Text, out[len(out)-1])) {
				out = out[:len(out)-1]
			}
			open = false
			if !ok {
				continue
			}
			chosen, quote, ok := pickFrom(o, t.Text)
			if !ok || !concrete(o) {
				continue
			}
			picks[at] = true
			// A later pick among the same alternatives replaces an earlier one.
			out = slices.DeleteFunc(out, func(c proseChoice) bool { return sameOffer(c.offer, o) })
			out = append(out, proseChoice{offer: o, chosen: chosen, reply: t, agent: *agent, quote: quote, at: at, request: requestBefore(s, at, picks, agent.Text)})
			open = true
		}
	}
	if len(out) > maxProseChoices {
		out = out[len(out)-maxProseChoices:]
	}
	for i := range out {
		out[i].again = refusedAgain(s, out[i])
	}
	return out
}

// requestBefore is the person's last request before the pick at: not a
// pick, not a correction of the work. Picks are few, so looking back from
// each costs less than reading every turn as it goes.
//
// The request must share a word with the offer: the last thing the person
// asked may be an answer about something else ("leave resource limits
// for later"), and a For line about something else misleads.
func requestBefore(s *transcript.Session, at int, picks map[int]bool, offerText string) string {
	for i := at - 1; i >= 0; i-- {
		t := s.Turns[i]
		if !t.IsPerson() || t.Form == transcript.Pasted || picks[i] {
			continue
		}
		if substantive(t.Text) && !reFollowUp.MatchString(statement(t.Text)) {
			if sharedLongWords(t.Text, offerText) == 0 {
				return ""
			}
			return ask(t.Text)
		}
	}
	return ""
}

// refines reports a new offer that goes on with an earlier pick: its
// alternatives are kinds of what was just chosen ("two rockets: …").
func refines(o offer, prev proseChoice) bool {
	for qi, q := range prev.offer.questions {
		if prev.chosen[qi] < 0 {
			continue
		}
		picked := distinctive(q.options)[prev.chosen[qi]]
		for _, nq := range o.questions {
			for w := range picked {
				n := 0
				for _, opt := range nq.options {
					if optionWords(opt.text + " " + opt.bold)[w] {
						n++
					}
				}
				if n >= 2 {
					return true
				}
			}
		}
	}
	return false
}

var reTurnDown = lazyre.New(`(?i)\b(?:not|no|don'?t|dont|never|instead of|rather than)\b`)

// turnsDown reports the person's next words going back on their pick:
// "maybe not a rocket".
func turnsDown(reply string, prev proseChoice) bool {
	head := replyHead(lineSentences(reply))
	if !reTurnDown.MatchString(head) {
		return false
	}
	for qi, q := range prev.offer.questions {
		if i := prev.chosen[qi]; i >= 0 && matches(distinctive(q.options)[i], replyWords(head)) > 0 {
			return true
		}
	}
	return false
}

// sameOffer reports two offers of the same alternatives for the same thing.
func sameOffer(a, b offer) bool {
	return overlap(subject(normalize(a.about())), subject(normalize(b.about()))) >= 0.7
}

// proseAnswers turns a session's prose choices into decisions: the
// question, what was chosen and over what.
func proseAnswers(s *transcript.Session) []Candidate {
	var out []Candidate
	for _, c := range proseChoices(s) {
		out = append(out, c.candidate())
	}
	return out
}

func (c proseChoice) candidate() Candidate {
	var asked, chosen, others []string
	title := ""
	for qi, q := range c.offer.questions {
		i := c.chosen[qi]
		if i < 0 {
			continue
		}
		asked = append(asked, q.text)
		chosen = append(chosen, q.options[i].text)
		var not []string
		for j, o := range q.options {
			if j != i {
				not = append(not, o.text)
			}
		}
		others = append(others, strings.Join(not, "; "))
		if title == "" {
			title = q.options[i].head()
			if len(not) == 1 && len(title) < 45 {
				title += " over " + q.options[1-i].head()
			}
			if m := reWhichWhat.FindStringSubmatch(q.text); m != nil && len(title) < 40 {
				title = m[1] + ": " + title
			} else if h, _, ok := strings.Cut(q.text, ":"); ok && len(h) < 30 && !strings.Contains(h, "?") && !reQuestionNo.MatchString(h) && names(h) {
				title = strings.TrimSpace(h) + ": " + title // "Stderr handling: …"
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Asked: %s\nChosen: %s", strings.Join(asked, " / "), strings.Join(chosen, " / "))
	if n := strings.Join(slices.DeleteFunc(others, func(o string) bool { return o == "" }), " / "); n != "" {
		fmt.Fprintf(&b, "\nNot chosen: %s", n)
	}
	if c.quote {
		said := replyHead(lineSentences(c.reply.Text))
		if len(c.offer.questions) > 1 {
			said = c.reply.Text // answers by number
		}
		fmt.Fprintf(&b, "\nThe person said: %q", clip(oneLine(said), 240))
	}
	if c.again.said != "" {
		fmt.Fprintf(&b, "\nAnd again: %q", c.again.said)
	}
	if c.request != "" {
		fmt.Fprintf(&b, "\nFor: %q", c.request)
	}
	cand := Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(title), Body: b.String(),
		Tags: []string{"decision", "answer"}, Turns: []string{c.agent.Ref, c.reply.Ref},
		Rule: "person chose among alternatives the agent offered", Confidence: 0.75, Time: c.reply.Time}
	if c.again.said != "" {
		// Turned down twice, the other way is one the person does not
		// want: how they want it from now on, not a one-time choice.
		cand.Kind, cand.Tags = schema.KindPreference, []string{"preference", "answer"}
		cand.Turns = append(cand.Turns, c.again.agent, c.again.reply)
		cand.Rule, cand.Confidence, cand.Time = "person refused again an alternative the agent offered again", 0.8, c.again.time
	}
	return cand
}

// genericWords say that something is being chosen, not what: "You're
// absolutely right! There are cleaner ways. Which approach do you prefer?"
var genericWords = map[string]bool{"approach": true, "approaches": true, "option": true, "options": true, "way": true, "ways": true,
	"prefer": true, "direction": true, "best": true, "better": true, "cleaner": true, "simpler": true, "handle": true, "sounds": true,
	"choose": true, "pick": true, "absolutely": true, "right": true, "question": true, "think": true, "go": true, "want": true,
	"quick": true, "first": true, "one": true, "last": true, "small": true, "thing": true}

// names reports words that say what something is about, beyond asking:
// "Stderr handling", not "Quick question first".
func names(text string) bool {
	for w := range subject(text) {
		if !genericWords[w] {
			return true
		}
	}
	return false
}

// concrete reports an offer whose questions say what is being chosen:
// two words or more beyond the asking. A choice without its subject
// reads two ways later.
func concrete(o offer) bool {
	for _, q := range o.questions {
		n := 0
		for w := range subject(q.text) {
			if !genericWords[w] {
				n++
			}
		}
		if n < 2 {
			return false
		}
	}
	return true
}
