package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// privateSpanRe is a <private> span, or an opening tag whose closing tag
// was cut away: what follows it to the end is private too.
var privateSpanRe = lazyre.New(`(?is)<private>.*?(?:</private>|$)`)

// StripPrivate removes the spans a person wrapped in <private>...</private>
// (an unclosed one runs to the end). It runs before anything is cut into a
// title or summarised: a span cut in half no longer matches as a span.
func StripPrivate(text string) string {
	if !hasPrivateTag(text) {
		return text
	}
	return privateSpanRe.ReplaceAllString(text, "")
}

// hasPrivateTag finds an opening tag in any case without copying the
// text: capture calls StripPrivate on every turn of a session.
func hasPrivateTag(s string) bool {
	const tag = "<private>"
	for i := strings.IndexByte(s, '<'); i >= 0 && len(s)-i >= len(tag); {
		if strings.EqualFold(s[i:i+len(tag)], tag) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '<')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// withoutPrivate is s with every private span removed from what was said
// and run, leaving the caller's session as it was.
func withoutPrivate(s *transcript.Session) *transcript.Session {
	out := *s
	out.Turns = make([]transcript.Turn, len(s.Turns))
	for i, t := range s.Turns {
		t.Text = StripPrivate(t.Text)
		if t.Call != nil {
			c := *t.Call
			c.Command, c.Output = StripPrivate(c.Command), StripPrivate(c.Output)
			t.Call = &c
		}
		out.Turns[i] = t
	}
	out.Title = StripPrivate(s.Title)
	return &out
}
