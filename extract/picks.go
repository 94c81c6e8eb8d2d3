package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

var (
	// rePickLabel picks by number, letter or place: "2", "option B",
	// "lets go with 1", "the second one".
	rePickLabel = lazyre.New(`(?i)^(?:(?:ok(?:ay)?|yes|yeah|yep|sure|hmm+|alright|right)[,.!]?\s+)?(?:(?:let'?s|lets|i(?:'d|'ll| will| would)?|we(?:'ll| will)?)\s+)?(?:(?:go(?:ing)?\s+(?:with|for)|do|use|take|pick|choose|prefer|want)\s+)?(?:the\s+)?(option\s+|number\s+|#)?([1-9]|[a-d]|first|second|third|fourth|last)\b(?:\s+(?:one|option|approach|way))?\s*[.!,:)-]?\s*(.*)$`)
	// reMulti picks several, or a range: work to do, not one way over another.
	reMulti = lazyre.New(`(?i)\b(?:both|all|each of|every one|\d\s*(?:-|to|and|&|,)\s*\d)\b`)
	// reNotAPick defers, refuses, or tries: no choice was made.
	reNotAPick   = lazyre.New(`(?i)\b(?:not|no|don'?t|dont|never|without|neither|none|later|not now|skip|try|maybe|instead)\b`)
	rePickReason = lazyre.New(`(?i)^(?:because|since|as|so|please|pls|then|for now|is fine|sounds good|is better|makes sense|looks good|seems|,|—|-|$)`)
	// reNumbered cuts a reply to numbered questions: "1 yes 2 no", "for 2, …".
	reNumbered   = lazyre.New(`(?i)(?:^|[\s,;/.])(?:for\s+)?(?:q|#|question\s+)?([1-9])(?:[.):]|\s+-)?\s+`)
	reIdentifier = lazyre.New(`[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z0-9]+_[A-Za-z0-9_]+`)
)

var ordinals = map[string]int{"first": 0, "second": 1, "third": 2, "fourth": 3}

// pickFrom reads which of an offer's alternatives a reply picks: per
// question, the option's index or -1. quote says the reply's words carry
// the choice. ok is false unless it clearly picks one.
func pickFrom(o offer, reply string) (chosen []int, quote, ok bool) {
	chosen = make([]int, len(o.questions))
	for i := range chosen {
		chosen[i] = -1
	}
	sents := lineSentences(reply)
	if len(sents) == 0 || allQuestions(sents) {
		return nil, false, false
	}
	head := replyHead(sents)
	if len(o.questions) > 1 || o.questions[0].label != "" && reNumbered.MatchString(reply) {
		return pickEach(o, reply, chosen)
	}
	opts := o.questions[0].options
	if reMulti.MatchString(head) {
		return nil, false, false
	}
	if i, rest, ok := pickByLabel(opts, head); ok {
		if reNotAPick.MatchString(rest) || len(rest) > 80 && !rePickReason.MatchString(rest) {
			return nil, false, false
		}
		chosen[0] = i
		return chosen, strings.TrimSpace(rest) != "", true
	}
	if reNotAPick.MatchString(head) {
		return nil, false, false
	}
	if i, ok := pickByWords(opts, head); ok {
		chosen[0] = i
		return chosen, true, true
	}
	return nil, false, false
}

// pickEach reads answers to numbered questions, each by its number.
func pickEach(o offer, reply string, chosen []int) ([]int, bool, bool) {
	parts := map[string]string{}
	locs := reNumbered.FindAllStringSubmatchIndex(reply, -1)
	for k, l := range locs {
		end := len(reply)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		parts[reply[l[2]:l[3]]] = reply[l[1]:end]
	}
	any := false
	for qi, q := range o.questions {
		part, ok := parts[q.label]
		if !ok || reNotAPick.MatchString(part) || reMulti.MatchString(part) {
			continue
		}
		if i, ok := pickByWords(q.options, part); ok {
			chosen[qi], any = i, true
		}
	}
	return chosen, any, any
}

var reNextRequest = lazyre.New(`(?i)^(?:also|then|next|now|and|but|can you|could you|please|we (?:also )?need|make sure|let'?s|lets)\b`)

// replyHead is the opening of a reply, where a pick is: what follows a
// new request is the next thing asked for.
func replyHead(sents []string) string {
	head := sents[0]
	for _, s := range sents[1:] {
		if len(head) >= 25 && (reNextRequest.MatchString(s) || strings.HasSuffix(s, "?")) || len(head)+len(s) > 240 {
			break
		}
		head += " " + s
	}
	return head
}

func allQuestions(sents []string) bool {
	for _, s := range sents {
		if !strings.HasSuffix(s, "?") {
			return false
		}
	}
	return true
}

// pickByLabel reads "2", "option B", "the second one".
func pickByLabel(opts []option, reply string) (int, string, bool) {
	m := rePickLabel.FindStringSubmatch(statement(reply))
	if m == nil {
		return 0, "", false
	}
	label, rest := strings.ToLower(m[2]), m[3]
	if n, ok := ordinals[label]; ok {
		return n, rest, n < len(opts)
	}
	if label == "last" {
		return len(opts) - 1, rest, true
	}
	// A bare letter is a word ("a new one") unless it names an option.
	if label[0] >= 'a' && m[1] == "" && strings.TrimSpace(rest) != "" {
		return 0, "", false
	}
	for i, o := range opts {
		if strings.EqualFold(o.label, label) {
			return i, rest, true
		}
	}
	return 0, "", false
}

// pickByWords reads a reply that names one alternative: by an identifier
// only it has, or by two or more words only it has.
func pickByWords(opts []option, reply string) (int, bool) {
	dist := distinctive(opts)
	words := replyWords(reply)
	squashed := squash(reply)
	best, bestScore, second := -1, 0, 0
	for i, o := range opts {
		score := matches(dist[i], words)
		for _, id := range reIdentifier.FindAllString(o.text+" "+o.bold, -1) {
			if id = squash(id); len(id) > 5 && strings.Contains(squashed, id) && !inOthers(opts, i, id) {
				score += 2
			}
		}
		switch {
		case score > bestScore:
			best, second, bestScore = i, bestScore, score
		case score > second:
			second = score
		}
	}
	// Two words say which; an option named by one word needs only it.
	return best, best >= 0 && bestScore >= min(2, len(dist[best])) && second == 0
}

// matches counts an option's words the reply has, a typo ("ginko") included.
func matches(opt, reply map[string]bool) int {
	n := 0
	for w := range opt {
		if reply[w] {
			n++
			continue
		}
		for r := range reply {
			if len(w) >= 5 && len(r) >= 4 && oneEdit(w, r) {
				n++
				break
			}
		}
	}
	return n
}

// oneEdit reports two words one insertion, deletion or change apart.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}

func inOthers(opts []option, i int, id string) bool {
	for j, o := range opts {
		if j != i && strings.Contains(squash(o.text+" "+o.bold), id) {
			return true
		}
	}
	return false
}

// distinctive are each option's content words that no other option has,
// in split ("single", "role") and joined ("singlerole") forms.
func distinctive(opts []option) []map[string]bool {
	sets := make([]map[string]bool, len(opts))
	for i, o := range opts {
		sets[i] = optionWords(o.text + " " + o.bold)
	}
	out := make([]map[string]bool, len(opts))
	for i, s := range sets {
		out[i] = map[string]bool{}
		for w := range s {
			other := false
			for j, t := range sets {
				if j != i && t[w] {
					other = true
					break
				}
			}
			if !other {
				out[i][w] = true
			}
		}
	}
	return out
}

var genericOptionWords = map[string]bool{"option": true, "approach": true, "way": true, "simpler": true, "cleaner": true, "recommended": true}

func optionWords(s string) map[string]bool {
	out := subject(normalize(s))
	for _, f := range strings.Fields(s) {
		if j := squash(f); len(j) > 3 && strings.ContainsAny(f, "-_") {
			out[j] = true
		}
	}
	for w := range out {
		if genericOptionWords[w] {
			delete(out, w)
		}
	}
	return out
}

// replyWords are a reply's content words, and each two neighbours
// joined ("g code" meets "G-code", "single role" "single-role").
func replyWords(s string) map[string]bool {
	out := subject(normalize(s))
	ws := words(normalize(s))
	for i := 0; i+1 < len(ws); i++ {
		out[ws[i]+ws[i+1]] = true
	}
	return out
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
