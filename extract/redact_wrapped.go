package extract

import "strings"

// A token pasted from a terminal or an editor can be wrapped over several
// lines, each part too short or too plain for a rule on its own. Where a
// line ends and the next begins inside long runs of token characters,
// the runs are joined and the named rules run over the join; a finding
// that crosses a line break covers every part.

// wrapMin is the shortest run on each side of a line break that is taken
// for one token wrapped in two: prose lines do not end and start with 16
// token characters in a row.
const wrapMin = 16

// wrapped finds secrets split over lines.
func (r *Redactor) wrapped(text string) []Finding {
	var out []Finding
	for _, reg := range wrapRegions(text) {
		joined, offs := joinRegion(text, reg)
		lower := asciiLower(joined)
		for _, ru := range r.rules {
			if !ru.tokenRule() {
				continue
			}
			ru.find(joined, lower, func(m []int) {
				s, e, ok := ru.span(joined, m)
				if !ok || s == e {
					return
				}
				ws, we := offs[s], offs[e-1]+1
				if strings.Contains(text[ws:we], "\n") {
					out = append(out, Finding{Rule: ru.name, Start: ws, End: we})
				}
			})
		}
	}
	return out
}

// tokenRule reports a rule for one token (a key, a webhook, a JWT), the
// only kind a line wrap can split; assignments and prose end at the line.
func (ru *rule) tokenRule() bool {
	switch ru.name {
	case "secret-assignment", "secret-prose", "cli-password", "private-key":
		return false
	}
	return true
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '/' || c == '=' || c == '.' || c == '%'
}

// wrapRegions returns the spans of text made of token runs joined by
// wrapping line breaks, from the start of the first run to the end of
// the last.
func wrapRegions(text string) [][2]int {
	var out [][2]int
	for from := 0; ; {
		i := strings.IndexByte(text[from:], '\n')
		if i < 0 {
			return out
		}
		nl := from + i
		from = nl + 1
		before := nl
		if before > 0 && text[before-1] == '\r' {
			before--
		}
		b := runBack(text, before)
		a := runFwd(text, nl+1)
		if before-b < wrapMin || a-(nl+1) < wrapMin {
			continue
		}
		if len(out) > 0 && out[len(out)-1][1] >= b {
			out[len(out)-1][1] = a // a token wrapped over three lines or more
		} else {
			out = append(out, [2]int{b, a})
		}
		from = a
	}
}

func runBack(text string, i int) int {
	for i > 0 && isTokenByte(text[i-1]) {
		i--
	}
	return i
}

func runFwd(text string, i int) int {
	for i < len(text) && isTokenByte(text[i]) {
		i++
	}
	return i
}

// joinRegion removes the line breaks of a region and maps each byte of
// the result back to its offset in text.
func joinRegion(text string, reg [2]int) (string, []int) {
	var b strings.Builder
	offs := make([]int, 0, reg[1]-reg[0])
	for i := reg[0]; i < reg[1]; i++ {
		if c := text[i]; c == '\n' || c == '\r' {
			continue
		}
		b.WriteByte(text[i])
		offs = append(offs, i)
	}
	return b.String(), offs
}
