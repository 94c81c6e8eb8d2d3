package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

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

// speller mends transposed letters in the person's words. It counts, in
// the agent's prose, only the words a mend asks about: a session's agent
// text is long, the person's quoted words are few.
type speller struct {
	s       *transcript.Session
	agent   map[string]*int // lowercased word → uses in the agent's prose, for words asked about
	swapped map[string]bool // words whose swaps are counted too
}

// newSpeller is a speller for the person's words in s.
func newSpeller(s *transcript.Session) *speller {
	return &speller{s: s, agent: map[string]*int{}, swapped: map[string]bool{}}
}

// prepare counts, in the agent's prose, the words that mending texts
// needs: first the person's words themselves, then the swaps of those the
// agent never wrote (most words it did write, so few swaps are made).
func (sp *speller) prepare(texts ...string) {
	var words []string
	for _, text := range texts {
		words = append(words, candidates(text)...)
	}
	if sp.ask(words) {
		sp.count()
	}
	var unknown []string
	for _, w := range words {
		if sp.uses(w) == 0 && !sp.swapped[w] {
			sp.swapped[w] = true
			unknown = append(unknown, swaps(w)...)
		}
	}
	if sp.ask(unknown) {
		sp.count()
	}
}

// ask adds the words not counted yet, and reports whether there were any.
func (sp *speller) ask(words []string) bool {
	fresh := false
	for _, w := range words {
		if sp.agent[w] == nil {
			sp.agent[w], fresh = new(0), true
		}
	}
	return fresh
}

// count recounts the words asked about in the agent's prose.
func (sp *speller) count() {
	for _, n := range sp.agent {
		*n = 0
	}
	var buf []byte
	for _, t := range sp.s.Turns {
		if !t.IsAgent() {
			continue
		}
		text := t.Text
		for i := 0; i <= len(text); i++ {
			if i < len(text) && isASCIILetter(text[i]) {
				buf = append(buf, text[i]|0x20)
				continue
			}
			if len(buf) >= 5 && (i == len(text) || text[i] < 0x80) {
				if n := sp.agent[string(buf)]; n != nil {
					*n++
				}
			}
			buf = buf[:0]
		}
	}
}

func (sp *speller) uses(w string) int {
	if n := sp.agent[w]; n != nil {
		return *n
	}
	return 0
}

// candidates are the lowercased plain words of text a mend may change.
func candidates(text string) []string {
	var out []string
	eachWord(text, func(w string, code bool) {
		if !code && len(w) >= 5 && isASCIIWord(w) {
			out = append(out, strings.ToLower(w))
		}
	})
	return out
}

// swaps are w with one pair of neighbouring letters swapped.
func swaps(w string) []string {
	var out []string
	for k := 0; k+1 < len(w); k++ {
		if w[k] != w[k+1] {
			out = append(out, w[:k]+string(w[k+1])+string(w[k])+w[k+2:])
		}
	}
	return out
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isASCIILetter(w[i]) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// mend returns text with each plain word of five or more letters the
// agent never wrote, and whose one swap of neighbouring letters the agent
// wrote at least three times, spelled the agent's way. Code (anything
// next to a dot, underscore, slash, digit or backtick) is left alone.
func (sp *speller) mend(text string) string {
	sp.prepare(text)
	var b strings.Builder
	eachWord(text, func(w string, code bool) {
		if !code {
			w = sp.fix(w)
		}
		b.WriteString(w)
	})
	return b.String()
}

// eachWord calls f with each run of letters of text (and whether it is
// part of code) and with each run of other characters, in order.
func eachWord(text string, f func(part string, code bool)) {
	for i := 0; i < len(text); {
		r, _ := utf8.DecodeRuneInString(text[i:])
		letter := unicode.IsLetter(r)
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if unicode.IsLetter(r) != letter {
				break
			}
			j += size
		}
		f(text[i:j], !letter || codeLike(text, i, j))
		i = j
	}
}

// codeLike reports whether the word at text[i:j] is part of an
// identifier, path or code span rather than prose.
func codeLike(text string, i, j int) bool {
	joins := func(r rune) bool { return strings.ContainsRune("._/\\`-:=$@#", r) || unicode.IsDigit(r) }
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[j:])
	return (i > 0 && joins(before)) || (j < len(text) && joins(after))
}

func (sp *speller) fix(w string) string {
	if len(w) < 5 || !isASCIIWord(w) {
		return w
	}
	low := strings.ToLower(w) // no copy when it is lower case already
	shouted := !strings.ContainsFunc(w, unicode.IsLower)
	if sp.uses(low) > 0 || realSwaps[low] || (hasInnerUpper(w) && !shouted) {
		return w
	}
	found := ""
	for _, swap := range swaps(low) {
		if sp.uses(swap) >= 3 && !realSwaps[swap] {
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
