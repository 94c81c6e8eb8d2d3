package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// evidence is how the session carried a directive out: the files it
// changed for it, and the words it wrote (the spelling files use, for
// the person's slips: "periferials" is "Peripherals").
type evidence struct {
	files []string
	words map[string][]string // lowercased word → forms written
}

// carriedOut finds, after turn i, the edits that carry d out: every
// name d must write written by some edit, and d's alternative taken out
// by an edit that does not write it back. It reads the first stretch of
// edits only (a plan made first is carried out after "go ahead"): later
// work on other requests writes the same names for other reasons.
func carriedOut(s *transcript.Session, i int, d directive) (evidence, bool) {
	ev := evidence{words: map[string][]string{}}
	found := make([]bool, len(d.written))
	removed := !d.removed
	edited := false
	for _, t := range s.Turns[i+1:] {
		if t.IsPerson() && edited {
			break
		}
		c := t.Call
		if c == nil || t.Prior || c.Status == transcript.NotRun || len(c.Files) == 0 {
			continue
		}
		edited = true
		written := writtenText(c)
		used := false
		if d.removed && strings.Contains(squash(removedText(c)), squash(d.alt)) && !strings.Contains(squash(written), squash(d.alt)) {
			removed, used = true, true
		}
		ws := ev.add(written)
		for j, n := range d.written {
			if hasWord(ws, n) {
				found[j], used = true, true
			}
		}
		if used {
			for _, f := range c.Files {
				if !slices.Contains(ev.files, f) && len(ev.files) < 6 {
					ev.files = append(ev.files, f)
				}
			}
		}
	}
	return ev, removed && !slices.Contains(found, false) && len(ev.files) > 0
}

// removedText is what a call took out of files: a patch's removed lines
// and deleted files, an edit's old text.
func removedText(c *transcript.Call) string {
	var b strings.Builder
	for l := range strings.SplitSeq(patchText(c), "\n") {
		switch {
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			b.WriteString(l[1:] + "\n")
		case strings.HasPrefix(l, "*** Delete File:"):
			b.WriteString(lastSegment(strings.TrimSpace(strings.TrimPrefix(l, "*** Delete File:"))) + "\n")
		}
	}
	for _, p := range editPairs(c) {
		b.WriteString(p[0] + "\n")
	}
	return b.String()
}

// add records the words of a call's written text; it returns them.
func (ev *evidence) add(text string) map[string]bool {
	ws := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		lw := strings.ToLower(w)
		ws[lw] = true
		if forms := ev.words[lw]; len(forms) < 3 && !slices.Contains(forms, w) {
			ev.words[lw] = append(forms, w)
		}
	}
	return ws
}

// hasWord reports name among a call's written words, or, for a long
// word, one a slip or two away from it.
func hasWord(ws map[string]bool, name string) bool {
	n := strings.ToLower(name)
	if ws[n] {
		return true
	}
	if len(n) < 7 {
		return false
	}
	for w := range ws {
		if editsApart(w, n) < farApart {
			return true
		}
	}
	return false
}

// farApart is more edits than a slip makes.
const farApart = 9

// editsApart counts the edits between two words of length 7 or more
// with the same first letter, when they are few enough to be a slip:
// up to 2, or 3 in a word of 10 letters or more ("periferials",
// "peripherals": 3). Other pairs are farApart.
func editsApart(a, b string) int {
	if len(a) < 7 || len(b) < 7 || a[0] != b[0] || len(a)-len(b) > 2 || len(b)-len(a) > 2 {
		return farApart
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	if d := prev[len(b)]; d <= 2 || d == 3 && min(len(a), len(b)) >= 10 {
		return d
	}
	return farApart
}

// mend spells the long words of a title the way the session's files
// do, where the person slipped.
func (ev evidence) mend(title string) string {
	f := strings.Fields(title)
	for i, w := range f {
		core := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		lw := strings.ToLower(core)
		if len(lw) < 7 || ev.words[lw] != nil {
			continue
		}
		best, bestD := "", farApart
		for k := range ev.words {
			if d := editsApart(k, lw); d < bestD || d == bestD && d < farApart && k < best {
				best, bestD = k, d
			}
		}
		if best == "" {
			continue
		}
		form := ev.words[best][0]
		if core == lw && slices.Contains(ev.words[best], best) {
			form = best // the person wrote it lower-case
		}
		f[i] = strings.Replace(w, core, form, 1)
	}
	return strings.Join(f, " ")
}

// reBringBack is the person undoing a choice: "bring heroicons back".
var reBringBack = lazyre.New(`(?i)\b(?:(?:bring|put|add)\b[^.,;]{0,30}\bback|restore|re-?add|revert|undo|go back to|keep using)\b`)

// saidLater reports a sentence of the person's, in turns, that names name
// (spacing and case aside) and matches re: a choice taken back.
func saidLater(turns []transcript.Turn, name string, re *lazyre.Regexp) bool {
	key := squash(name)
	if key == "" {
		return false
	}
	for _, t := range turns {
		if !t.IsPerson() {
			continue
		}
		for _, sent := range sentences(t.Text) {
			if re.MatchString(sent) && strings.Contains(squash(sent), key) {
				return true
			}
		}
	}
	return false
}
