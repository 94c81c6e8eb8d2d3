package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// A choice with its reason in the next sentence is a decision; with a
// question after it, it is still only a wish.
func TestDecisionWithReasonNext(t *testing.T) {
	for text, want := range map[string]bool{
		"I would like to use optimistic locks for user update. I don't want two processes updating a user at the same time, because that can mess with audit logging.": true,
		"I would like to use optimistic locks for user update. Is it possible to add a version because of the audit log?":                                              false,
		"I would like to use optimistic locks for user update. Then add a role field.":                                                                                 false,
	} {
		s := &transcript.Session{Turns: []transcript.Turn{{Ref: "u1", Speaker: transcript.Person, Text: text}}}
		var got bool
		for _, c := range extractDecisions(s) {
			if c.Confidence >= minConfidence {
				got = true
				if c.Title != "Use optimistic locks for user update" || !strings.Contains(c.Body, "because that can mess with audit logging") {
					t.Errorf("decision = %q / %q", c.Title, c.Body)
				}
			}
		}
		if got != want {
			t.Errorf("%q: decision written = %v, want %v", text, got, want)
		}
	}
}
