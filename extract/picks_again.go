package extract

import (
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// A pick whose other way the agent brings back and the person turns down
// again: "auto-detect the location, or a city?" "detect it" … "what city
// should I hard-code?" "I don't want a city, detect it". Twice refused,
// the pick is a preference.

// refusal is the person's second no to an alternative they did not pick.
type refusal struct {
	said  string // their words, briefly
	agent string // the agent turn that offered it again
	reply string
	time  time.Time
}

// maxAgainTurns bounds how long after a pick a refusal still answers it:
// a "no" much later is about something else.
const maxAgainTurns = 8

// reRefuse opens a refusal: what follows it is what the person does not
// want. "not sure" and "no idea" are not refusals.
var reRefuse = lazyre.New(`(?i)(?:^(?:no|nah|nope)\b|\b(?:don'?t|dont|do not) (?:want|need|like|use)\b|\b(?:rather not|instead of|never)\b|\bnot (?:a|an|the|to|with|by|via|from)\b)`)

// refusedAgain finds the person refusing, after their pick, an
// alternative they did not pick that the agent offered again: the agent's
// words between their turns name it, and the person's refusal names it
// after the "no".
func refusedAgain(s *transcript.Session, c proseChoice) refusal {
	if len(c.offer.questions) != 1 || c.chosen[0] < 0 {
		return refusal{}
	}
	rejected := notChosenWords(c.offer.questions[0].options, c.chosen[0])
	if len(rejected) == 0 {
		return refusal{}
	}
	var offered []string // the agent's words since the person's last turn
	agentRef, turns := "", 0
	for _, t := range s.Turns[c.at+1:] {
		switch {
		case t.IsAgent():
			offered = append(offered, t.Text)
			agentRef = t.Ref
		case t.IsPerson() && t.Form != transcript.Pasted:
			if turns++; turns > maxAgainTurns {
				return refusal{}
			}
			if len(offered) > 0 && matches(rejected, replyWords(strings.Join(offered, "\n"))) > 0 {
				if said := refuses(t.Text, rejected); said != "" {
					return refusal{said: said, agent: agentRef, reply: t.Ref, time: t.Time}
				}
			}
			offered = offered[:0]
		}
	}
	return refusal{}
}

// notChosenWords are the words only the alternatives not picked have.
func notChosenWords(opts []option, picked int) map[string]bool {
	out := map[string]bool{}
	for j, words := range distinctive(opts) {
		if j == picked {
			continue
		}
		for w := range words {
			out[w] = true
		}
	}
	return out
}

// refuses is the sentence of a reply that turns down what rejected names,
// "" when none does.
func refuses(reply string, rejected map[string]bool) string {
	for _, sent := range lineSentences(replyHead(lineSentences(reply))) {
		if strings.HasSuffix(sent, "?") || reMaybe.MatchString(sent) {
			continue
		}
		loc := reRefuse.FindStringIndex(sent)
		if loc != nil && matches(rejected, replyWords(sent[loc[1]:])) > 0 {
			return clip(oneLine(statement(sent)), 160)
		}
	}
	return ""
}
