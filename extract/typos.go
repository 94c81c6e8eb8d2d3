package extract

import (
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/transcript"
)

// A person types fast: "when I ask wehre I need file paths", "stop
// making chnages". A memory that keeps the slip reads badly, and search
// for "where" misses it. The agent's prose in the same session spells
// the word right, so it is the dictionary: no word list ships with
// cairn, and the session's own words know its jargon.

// realSwaps are pairs of real words one swap of neighbouring letters
// apart: the agent using one of them proves nothing about the other.
var realSwaps = map[string]bool{
	"quiet": true, "quite": true, "trial": true, "trail": true, "angel": true, "angle": true,
	"dairy": true, "diary": true, "casual": true, "causal": true, "united": true, "untied": true,
	"silver": true, "sliver": true, "spilt": true, "split": true, "marital": true, "martial": true,
	"fries": true, "fires": true, "sacred": true, "scared": true, "tried": true, "tired": true,
}

// speller mends transposed letters in the person's words.
type speller struct {
	agent map[string]int // lowercased word → uses in the agent's prose
}

// newSpeller counts the words of the agent's prose in s.
func newSpeller(s *transcript.Session) *speller {
	sp := &speller{agent: map[string]int{}}
	for _, t := range s.Turns {
		if !t.IsAgent() {
			continue
		}
		for _, w := range strings.FieldsFunc(t.Text, notLetter) {
			if len(w) >= 4 {
				sp.agent[strings.ToLower(w)]++
			}
		}
	}
	return sp
}

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// mend returns text with each plain word of five or more letters the
// agent never wrote, and whose one swap of neighbouring letters the agent
// wrote at least three times, spelled the agent's way. Code (anything
// next to a dot, underscore, slash, digit or backtick) is left alone.
func (sp *speller) mend(text string) string {
	var b strings.Builder
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && unicode.IsLetter(rs[j]) {
			j++
		}
		w := string(rs[i:j])
		if !codeLike(rs, i, j) {
			w = sp.fix(w)
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

// codeLike reports whether the word at rs[i:j] is part of an identifier,
// path or code span rather than prose.
func codeLike(rs []rune, i, j int) bool {
	joins := func(r rune) bool { return strings.ContainsRune("._/\\`-:=$@#", r) || unicode.IsDigit(r) }
	return (i > 0 && joins(rs[i-1])) || (j < len(rs) && joins(rs[j]))
}

func (sp *speller) fix(w string) string {
	low := strings.ToLower(w)
	shouted := w == strings.ToUpper(w)
	if len(low) < 5 || len([]rune(low)) != len(low) || sp.agent[low] > 0 || realSwaps[low] || (hasInnerUpper(w) && !shouted) {
		return w
	}
	found := ""
	for k := 0; k+1 < len(low); k++ {
		if low[k] == low[k+1] {
			continue
		}
		swap := low[:k] + string(low[k+1]) + string(low[k]) + low[k+2:]
		if sp.agent[swap] >= 3 && !realSwaps[swap] {
			if found != "" && found != swap {
				return w // two readings: not sure which was meant
			}
			found = swap
		}
	}
	if found == "" {
		return w
	}
	switch {
	case shouted:
		return strings.ToUpper(found)
	case unicode.IsUpper(rune(w[0])):
		return strings.ToUpper(found[:1]) + found[1:]
	}
	return found
}

// hasInnerUpper reports a capital after the first letter: a name in
// camel case, spelled as its owner chose. (A word all in capitals is
// shouted prose, mended like any other.)
func hasInnerUpper(w string) bool {
	return strings.IndexFunc(w[1:], unicode.IsUpper) >= 0
}
