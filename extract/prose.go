package extract

import (
	"iter"
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// sentences splits text into the sentences of its prose: code blocks,
// tables, quotes, logs and data lines are left out, markdown emphasis is
// taken off, list markers dropped.
func sentences(text string) []string {
	var out []string
	for line := range proseLines(text) {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|") || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		t = plain(strings.TrimLeft(t, "#-*•+0123456789.) "))
		if !transcript.IsProse(t) {
			continue
		}
		for _, s := range splitSentences(t) {
			if s = strings.TrimSpace(s); len(s) >= 8 {
				out = append(out, s)
			}
		}
	}
	return out
}

// proseLines are a text's lines outside fenced code blocks.
func proseLines(text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		inCode := false
		for l := range strings.SplitSeq(text, "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				inCode = !inCode
				continue
			}
			if !inCode && !yield(l) {
				return
			}
		}
	}
}

var (
	reEmphasis = lazyre.New(`\*\*(.+?)\*\*`)
	// reUnderBold is __bold words__, not a dunder (__main__.py, __init__).
	reUnderBold = lazyre.New(`(^|[^\w/.])__([^_\s][^_]*\s[^_]*[^_\s])__([^\w]|$)`)
	reItalic    = lazyre.New(`(^|[\s(])[*_]([^*_\s][^*_]*?)[*_]([\s.,;:)!?]|$)`)
	reLink      = lazyre.New(`\[([^\]]+)\]\([^)]+\)`)
)

// plain takes markdown emphasis and links off a line, and any stray
// emphasis markers a cut left behind.
func plain(s string) string {
	s = reLink.ReplaceAllString(s, "$1")
	if !strings.Contains(s, "`") {
		return strings.TrimSpace(unemphasize(s))
	}
	// Code keeps its underscores and stars: `func(_ ctx, _ ...any)`.
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = unemphasize(parts[i])
	}
	return strings.TrimSpace(strings.Join(parts, "`"))
}

func unemphasize(s string) string {
	s = reEmphasis.ReplaceAllString(s, "$1")
	s = reUnderBold.ReplaceAllString(s, "$1$2$3")
	s = reItalic.ReplaceAllString(s, "$1$2$3")
	return strings.ReplaceAll(s, "**", "")
}

// splitSentences cuts a line at sentence ends; "e.g.", "v1.2" and file
// names are not ends.
func splitSentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(t) || t[i+1] == ' ') {
			if c == '.' && i >= 2 && (t[i-2] == '.' || t[i-2] == ' ' && i-2 < start+2) {
				continue
			}
			out = append(out, t[start:i+1])
			start = i + 1
		}
	}
	if start < len(t) {
		out = append(out, t[start:])
	}
	return out
}

// interjections open a person's sentence without adding to it.
var interjections = map[string]bool{"ok": true, "okay": true, "so": true, "well": true, "yeah": true, "yes": true, "yep": true, "no": true,
	"nope": true, "hmm": true, "hmmm": true, "mm": true, "mmm": true, "ah": true, "ahh": true, "oh": true, "alright": true, "right": true,
	"sure": true, "great": true, "cool": true, "nice": true, "thanks": true, "please": true, "pls": true, "plz": true, "lol": true, "omg": true,
	"ugh": true, "wait": true, "ffs": true, "wtf": true, "damn": true, "actually": true, "also": true, "and": true, "but": true, "btw": true,
	"fuck": true, "fucking": true}

// twoWordInterjections open a sentence the same way.
var twoWordInterjections = map[string]bool{"thank you": true, "hold on": true, "fuck me": true, "oh btw": true}

// trailingNoise closes a spoken sentence without meaning.
var trailingNoise = map[string]bool{"ffs": true, "fffs": true, "lol": true, "pls": true, "plz": true, "please": true}

// statement strips what opens and closes a spoken sentence without
// meaning: interjections, "ffs", exclamation marks.
func statement(s string) string {
	s = strings.TrimSpace(s)
	for {
		first, rest, _ := strings.Cut(s, " ")
		w := strings.ToLower(strings.TrimRight(first, ",.!:;-"))
		if two, rest2, ok := strings.Cut(rest, " "); ok && twoWordInterjections[w+" "+strings.ToLower(strings.TrimRight(two, ",.!:;-"))] {
			s = strings.TrimSpace(rest2)
			continue
		}
		if !interjections[w] || rest == "" || (w != first && !strings.ContainsAny(first, ",.!:;-") && !interjections[strings.ToLower(first)]) {
			break
		}
		s = strings.TrimLeft(strings.TrimSpace(rest), ",.!:;- ")
	}
	for {
		t := strings.TrimRight(s, " ,.!?")
		i := strings.LastIndexByte(t, ' ')
		if i < 0 || !trailingNoise[strings.ToLower(t[i+1:])] {
			break
		}
		s = t[:i]
	}
	// A question stays one; other closing marks go.
	question := strings.HasSuffix(strings.TrimRight(s, " !."), "?")
	s = strings.TrimRight(s, " ,.!?")
	if question {
		s += "?"
	}
	return s
}

// titleFrom turns a sentence into a title: plain text, first letter upper,
// no trailing period, cut at a word boundary to about 90 characters.
func titleFrom(s string) string {
	s = plain(strings.Join(strings.Fields(s), " "))
	s = strings.TrimRight(s, ".!;:, ")
	if len(s) > 90 {
		cut := strings.LastIndexAny(s[:90], " ")
		if cut < 40 {
			cut = 90
			for cut > 0 && !utf8Start(s[cut]) {
				cut--
			}
		}
		s = strings.TrimRight(s[:cut], ",;:-( ") + "…"
	}
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s at a word boundary to about n bytes.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// firstSentences keeps the first sentences of a text up to about n bytes,
// whole.
func firstSentences(text string, n int) string {
	var b strings.Builder
	for _, s := range sentences(text) {
		if b.Len() > 0 && b.Len()+len(s) > n {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return clip(b.String(), n+n/2)
}
