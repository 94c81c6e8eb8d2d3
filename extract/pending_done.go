package extract

import (
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// Whether named work was done after all: a later write of the file it
// names, an edit holding its code name, the agent coming back to it.

// reWriteCmd is a shell command that can write the files it names.
var reWriteCmd = lazyre.New(`(?:\bsed\s+-i|>|\btee\b|\bmv\b|\bcp\b|\brm\b|\bpython3?\b|\bperl\b|\bpatch\b|\bgit (?:checkout|restore|apply)\b|\bgofmt -w|\bprettier\b.*--write)`)

// touchedAfter reports a call after turn i that wrote a file the item
// names, or, when it names none, an edit that holds a code name it names
// (a field name alone is too common to say more when a file is named).
func touchedAfter(s *transcript.Session, i int, refs []string) bool {
	byFile := slices.ContainsFunc(refs, isFileName)
	for _, t := range s.Turns[i+1:] {
		c := t.Call
		if c == nil || t.Prior || c.Status == transcript.NotRun {
			continue
		}
		for _, f := range c.Files {
			if slices.Contains(refs, lastSegment(f)) || slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, "/") && strings.HasSuffix(f, r) }) {
				return true
			}
		}
		if c.Command != "" && reWriteCmd.MatchString(c.Command) && mentionsRef(c.Command, refs) {
			return true
		}
		if !byFile && len(c.Files) > 0 && mentionsRef(inputText(c), refs) {
			return true
		}
	}
	return false
}

// takenUpAfter reports the agent coming back to the item after turn i in
// words that do not call it still to do: it was done, or settled.
func takenUpAfter(s *transcript.Session, i int, refs []string) bool {
	for _, t := range s.Turns[i+1:] {
		if !t.IsAgent() || !mentionsRef(t.Text, refs) {
			continue
		}
		for _, sent := range sentences(t.Text) {
			if mentionsRef(sent, refs) && !reStillPending.MatchString(sent) && !reOutstandingHead.MatchString(sent) {
				return true
			}
		}
	}
	return false
}

// mentionsRef reports text naming one of refs as a whole word.
func mentionsRef(text string, refs []string) bool {
	for _, r := range refs {
		for j := 0; ; {
			k := strings.Index(text[j:], r)
			if k < 0 {
				break
			}
			k += j
			if (k == 0 || !isWordByte(text[k-1])) && (k+len(r) == len(text) || !isWordByte(text[k+len(r)])) {
				return true
			}
			j = k + 1
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// inputText is what an edit wrote: the string values of its input, the
// text it replaced left out.
func inputText(c *transcript.Call) string {
	var b strings.Builder
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case string:
			if key != "old_string" && key != "old_str" {
				b.WriteString(x)
				b.WriteByte('\n')
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		}
	}
	walk(c.Input, "")
	return b.String()
}
