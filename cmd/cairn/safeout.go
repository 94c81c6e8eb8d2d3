package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/cairnmem/cairn/schema"
)

// Memories written by older versions, hand edits and other tools can hold
// control characters. On their way to a terminal they are shown as
// escapes: a title holding ESC[31m must read as text, not recolor the
// screen, and a lone carriage return must not overwrite the line.
// Commands whose output is data for programs (hook, mcp, merge-driver,
// export, show, --json) write it untouched; JSON escapes them anyway.

// rawOutput names the commands whose stdout is data, not display.
var rawOutput = map[string]bool{"hook": true, "mcp": true, "merge-driver": true, "export": true, "show": true, "serve": true}

// controlSafe escapes control characters written through it.
type controlSafe struct{ w io.Writer }

func (c controlSafe) Write(p []byte) (int, error) {
	if !needsEscape(p) {
		return c.w.Write(p)
	}
	if _, err := c.w.Write([]byte(escapeControl(string(p)))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func needsEscape(p []byte) bool {
	for i, b := range p {
		if b < 0x20 && b != '\n' && b != '\t' || b == 0x7f || b == 0xc2 {
			if b == '\r' && i+1 < len(p) && p[i+1] == '\n' {
				continue
			}
			return true
		}
	}
	return false
}

// escapeControl shows control characters as \xNN (\u00NN for C1), keeping
// line feeds, tabs and the carriage return of a CRLF.
func escapeControl(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"), r == '\n', r == '\t':
			b.WriteRune(r)
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i]) // invalid UTF-8: the terminal shows a replacement
		case r < 0x80 && schema.IsControl(r), r == '\r':
			fmt.Fprintf(&b, `\x%02x`, r)
		case schema.IsControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
