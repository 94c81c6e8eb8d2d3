package extract

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/transcript"
)

// A <private> span is gone before anything is cut to a title or
// summarised, whatever the path: a span cut in half by a 90-character
// title must not leave its text behind.
func TestPrivateSpansNeverReachCandidates(t *testing.T) {
	const secret = "my home address is 12 Elm Street"
	prompts := []string{
		"From now on, always deploy the billing service from the release host at <private>" + secret + " and the door code is 4411</private> and never from laptops.",
		"Never run the seed script against production, the server is at <private>" + secret + ", Springfield, near the old mill by the river</private>.",
		"We decided to keep the monorepo because the build graph spans <private>" + secret + ", Springfield, near the old mill</private> every service.",
	}
	red, _ := NewRedactor(nil)
	check := func(path string, cs []Candidate) {
		t.Helper()
		for _, c := range cs {
			for _, s := range []string{c.Title, c.Summary, c.Body} {
				if strings.Contains(s, "Elm Street") || strings.Contains(s, "<private") {
					t.Errorf("%s: private text in a candidate: %q", path, s)
				}
			}
		}
	}
	now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	n := 0
	for _, p := range prompts {
		cs := Signals(p, "p1", now)
		n += len(cs)
		check("signals", cs)
		check("signals, redacted", redactCandidateAll(cs, red))
	}
	if n == 0 {
		t.Fatal("no signal fired: the test exercised nothing")
	}
	s := &transcript.Session{ID: "s-private", Agent: "claude-code"}
	for i, p := range prompts {
		s.Turns = append(s.Turns,
			transcript.Turn{Ref: "u" + string(rune('a'+i)), Speaker: transcript.Person, Text: p, Time: now},
			transcript.Turn{Ref: "a" + string(rune('a'+i)), Speaker: transcript.Agent, Text: "Understood: " + p, Time: now})
	}
	res, err := CaptureSession(context.Background(), s, Options{Redactor: red, DryRun: true, Now: now, Lookup: noLookup{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates)+len(res.Dropped) == 0 {
		t.Fatal("capture found nothing: the test exercised nothing")
	}
	check("capture", res.Candidates)
	if !strings.Contains(s.Turns[0].Text, "Elm Street") {
		t.Error("capture changed the caller's session")
	}
}

func redactCandidateAll(cs []Candidate, red *Redactor) []Candidate {
	var out []Candidate
	for _, c := range cs {
		out = append(out, redactCandidate(c, red))
	}
	return out
}

type noLookup struct{}

func (noLookup) Similar(context.Context, Candidate) ([]Existing, error) { return nil, nil }
