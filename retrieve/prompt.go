package retrieve

import (
	"strings"

	"github.com/cairnmem/cairn/index"
)

// A prompt hook runs on every prompt and injects memories only when they
// are relevant enough: the prompt must say something besides small talk,
// and a memory must contain 40% of what the prompt's most informative
// words weigh (index.Signal.Coverage). Coverage is a share, so the bar is
// the same in a vault of ten memories or of ten thousand. On the
// conversations in testdata/bench, asking each vault its own questions and
// the other vaults' questions: at 0.4, 84% of correct best matches are
// injected and 4% of questions about another conversation inject
// anything (0.3: 95% and 10%; 0.5: 76% and 1%); a bar of 2.5 on the raw
// text score, as hooks had, injected for 78% of the foreign questions.
const (
	promptMinWords    = 2
	promptMinCoverage = 0.4
)

// worthSearching reports whether a prompt says enough to search for:
// "ok", "thanks, go ahead" do not.
func worthSearching(prompt string) bool {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(prompt)) {
		w = strings.Trim(w, ".,;:!?\"'()[]{}")
		if len(w) > 2 && !smallTalk[w] {
			n++
		}
	}
	return n >= promptMinWords
}

var smallTalk = map[string]bool{"the": true, "and": true, "yes": true, "yeah": true, "thanks": true, "thank": true, "you": true, "please": true,
	"okay": true, "sure": true, "go": true, "ahead": true, "continue": true, "great": true, "good": true, "nice": true, "cool": true, "that": true,
	"this": true, "now": true, "lgtm": true, "done": true, "with": true, "for": true, "can": true}

// relevantToPrompt reports whether a memory found for a prompt covers
// enough of it to be worth injecting.
func relevantToPrompt(it Item) bool {
	for _, s := range it.Signals {
		if s.Name == index.SignalText {
			return s.Coverage >= promptMinCoverage
		}
	}
	return false
}
