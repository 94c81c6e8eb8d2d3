package schema

import (
	"strings"
	"unicode"
)

// maxSlug keeps file names short enough to read in a listing and far from
// file-system limits once a "-NN" suffix is added for uniqueness.
const maxSlug = 60

// Slugify turns a title into a file-name-safe slug: lower case letters and
// digits separated by single hyphens, cut at a word boundary.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	s := b.String()
	if len(s) > maxSlug {
		cut := strings.LastIndexByte(s[:maxSlug], '-')
		if cut < maxSlug/2 {
			cut = maxSlug
			for cut > 0 && !utf8Start(s[cut]) {
				cut--
			}
		}
		s = strings.TrimRight(s[:cut], "-")
	}
	if s == "" {
		return "memory"
	}
	if reservedName(s) {
		return s + "-memory" // "con" and the like cannot be file names on Windows
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
