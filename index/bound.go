package index

import (
	"crypto/sha1"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairnmem/cairn/internal/atomicfile"
	"github.com/cairnmem/cairn/schema"
)

// Query text arrives from prompts, agents and memories used as queries
// (related): it is bounded where it enters the index. bleve's fuzzy
// automaton, which spells an unknown word like the nearest known one,
// grows with the word: a 130,000-character word failed a search ("dfa
// contains more than 10000 states") and a 400,000-character one ran a hook
// out of memory. No real word is longer than maxTermRunes; a pasted log
// longer than maxQueryBytes is searched by its start.
const (
	maxTermRunes  = 100
	maxQueryBytes = 16 << 10
)

// boundQuery drops words longer than maxTermRunes, then cuts the text at
// maxQueryBytes (on a rune boundary).
func boundQuery(text string) string {
	text = dropLongWords(text)
	if len(text) > maxQueryBytes {
		cut := maxQueryBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	return text
}

func dropLongWords(text string) string {
	if len(text) <= maxTermRunes || !hasLongWord(text) {
		return text
	}
	var b strings.Builder
	start, runes := -1, 0
	flush := func(end int) {
		if start >= 0 && runes <= maxTermRunes {
			b.WriteString(text[start:end])
		} else if start >= 0 {
			b.WriteByte(' ')
		}
		start, runes = -1, 0
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			if start < 0 {
				start = i
			}
			runes++
			continue
		}
		flush(i)
		b.WriteRune(r)
	}
	flush(len(text))
	return b.String()
}

func hasLongWord(text string) bool {
	runes := 0
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			if runes++; runes > maxTermRunes {
				return true
			}
			continue
		}
		runes = 0
	}
	return false
}

// readMemory reads a memory file of at most schema.MaxFileBytes and
// returns it with its blob hash. A larger file is not read: it comes back
// with a schema.ErrInvalid error, to be skipped like an invalid memory,
// and a hash of its stat data standing in for its content, so the cache
// notices when it changes without rereading it each time.
func readMemory(path, rel string) ([]byte, [20]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, [20]byte{}, err
	}
	if err := schema.CheckSize(rel, fi.Size()); err != nil {
		return nil, sha1.Sum(fmt.Appendf(nil, "cairn-too-large\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano())), err
	}
	data, err := atomicfile.ReadFile(path)
	if err != nil {
		return nil, [20]byte{}, err
	}
	return data, blobHash(data), nil
}
