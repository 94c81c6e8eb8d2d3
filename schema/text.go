package schema

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Control characters have no place in a memory or a commit message: NUL
// makes git objects fail `git fsck --strict` (and every push to a remote
// that checks objects), and escape sequences reach the terminal of whoever
// lists the memories. Tabs and line breaks are text.

// IsControl reports a character to strip: C0 controls other than tab,
// line feed and carriage return, DEL, and C1 controls.
func IsControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7f && r <= 0x9f)
}

// CleanText returns s as valid UTF-8 without control characters. Text
// that needs no change is returned as is, without copying.
func CleanText(s string) string {
	if !needsClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if IsControl(r) {
			return -1
		}
		return r
	}, s)
}

func needsClean(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x80 {
			if b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f {
				return true
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || IsControl(r) {
			return true
		}
		i += size - 1
	}
	return false
}

// FindControl returns the 1-based line and the character of the first
// control character or invalid UTF-8 byte (utf8.RuneError) in s, or line
// 0 when there is none.
func FindControl(s string) (line int, r rune) {
	if !needsClean(s) {
		return 0, 0
	}
	line = 1
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size <= 1:
			return line, utf8.RuneError
		case IsControl(c):
			return line, c
		case c == '\n':
			line++
		}
		i += size
	}
	return 0, 0
}

// CleanStrings passes every text field of the memory through clean.
func (m *Memory) CleanStrings(clean func(string) string) {
	m.Title = clean(m.Title)
	m.Summary = clean(m.Summary)
	m.Gate = clean(m.Gate)
	m.SupersededBy = clean(m.SupersededBy)
	m.Body = clean(m.Body)
	for _, l := range [][]string{m.Tags, m.Triggers, m.Links, m.Supersedes} {
		for i := range l {
			l[i] = clean(l[i])
		}
	}
	if s := m.Source; s != nil {
		for _, f := range []*string{&s.Agent, &s.Session, &s.Transcript, &s.Extractor, &s.Version, &s.CodeCommit} {
			*f = clean(*f)
		}
		for _, l := range [][]string{s.Turns, s.Tools} {
			for i := range l {
				l[i] = clean(l[i])
			}
		}
	}
}

// DescribeControl names what FindControl found, for error messages.
func DescribeControl(r rune) string {
	if r == utf8.RuneError {
		return "a byte that is not UTF-8"
	}
	return fmt.Sprintf("control character %U", r)
}

// MaxFileBytes is the most a memory file may hold. Memories are notes
// with a one-line summary and an overview; a 10 MB body took seconds to
// commit and hundreds of megabytes to index. Larger material belongs in
// the project, linked from a memory.
const MaxFileBytes = 1 << 20

// CheckSize refuses a file of n bytes over MaxFileBytes.
func CheckSize(file string, n int64) error {
	if n <= MaxFileBytes {
		return nil
	}
	e := &ValidationError{}
	e.add(file, 0, "file", "is %d KB; a memory holds at most %d KB (split it, or keep the material in the project and link to it)", n>>10, MaxFileBytes>>10)
	return e
}
