package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
)

// pickCandidates are the prose picks written, decision or preference.
func pickCandidates(said ...string) []Candidate {
	var out []Candidate
	for _, c := range extractDecisions(alternating(said...)) {
		if c.Confidence >= minConfidence && strings.Contains(c.Rule, "alternative") {
			out = append(out, c)
		}
	}
	return out
}

const languageOffer = "The reader can show dates in one language. Quick question first: should it follow the system language, or use a fixed language you pick?"

// A pick whose other way the agent offers again and the person turns
// down again is how they want it: a preference, with both refusals.
func TestPickRefusedAgain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		said  []string
		again string // "" when the pick stays a decision
	}{
		{"offered again, refused again", []string{"Dates now show in the feed.", "nice can the dates show in my language?",
			languageOffer, "yes follow the system language",
			"Done. Which language should it be? I can add a setting so you pick a fixed language.", "I move between countries",
			"Then I'll add a small file where you set a fixed language and it falls back to the system.",
			"I dont want to set a fixed language I want it to follow the system"},
			"I dont want to set a fixed language I want it to follow the system"},
		{"refused something else", []string{"Dates now show in the feed.", "nice can the dates show in my language?",
			languageOffer, "yes follow the system language",
			"Done. I can also add a setting so you pick a fixed language.", "no, leave the fonts alone"}, ""},
		{"not offered again", []string{"Dates now show in the feed.", "nice can the dates show in my language?",
			languageOffer, "yes follow the system language",
			"Done, dates follow the system now.", "I dont want a fixed language anywhere in the app"}, ""},
		{"a question, not a refusal", []string{"Dates now show in the feed.", "nice can the dates show in my language?",
			languageOffer, "yes follow the system language",
			"Done. I can add a setting so you pick a fixed language.", "would a fixed language not break the tests?"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pickCandidates(tc.said...)
			if len(got) != 1 {
				t.Fatalf("wrote %d picks, want 1: %+v", len(got), got)
			}
			c := got[0]
			if tc.again == "" {
				if c.Kind != schema.KindDecision || strings.Contains(c.Body, "And again:") {
					t.Errorf("a one-time pick became %s: %q", c.Kind, c.Body)
				}
				return
			}
			if c.Kind != schema.KindPreference || !strings.Contains(c.Body, "\nAnd again: \""+tc.again+"\"") {
				t.Errorf("got %s %q, want a preference refused again with %q", c.Kind, c.Body, tc.again)
			}
			if n := len(c.Turns); n != 4 {
				t.Errorf("turns = %v, want the offer, the pick, the offer again and the refusal", c.Turns)
			}
		})
	}
}

// A prose pick says what the person had asked for when the agent offered
// the alternatives: the choice alone does not say what it was about.
func TestPickFor(t *testing.T) {
	got := pickCandidates("Dates now show in the feed.", "nice can the dates show in my language?", languageOffer, "follow the system language")
	if len(got) != 1 || !strings.HasSuffix(got[0].Body, "\nFor: \"can the dates show in my language?\"") {
		t.Errorf("got %+v, want the request the pick served", got)
	}
	// A correction of the work is not the request: the one it corrects is.
	got = pickCandidates("Dates now show in the feed.", "nice can the dates show in my language?", "Done, the detail view shows them.",
		"you didnt actually change the list view, the dates there are still in english", languageOffer, "follow the system language")
	if len(got) != 1 || !strings.HasSuffix(got[0].Body, "\nFor: \"can the dates show in my language?\"") {
		t.Errorf("got %+v, want the request before the correction", got)
	}
	// The last thing the person said may answer something else: a For
	// line about it would mislead, so there is none.
	got = pickCandidates("Dates now show in the feed. Should I also cap the cache size?", "leave the cache size for later", languageOffer, "follow the system language")
	if len(got) != 1 || strings.Contains(got[0].Body, "For:") {
		t.Errorf("got %+v, want no For line from an answer about something else", got)
	}
	// The pick itself is no request: a later pick says the request before both.
	got = pickCandidates(languageOffer, "follow the system language", twoWays, "lets go with 2")
	for _, c := range got {
		if strings.Contains(c.Body, "For:") {
			t.Errorf("a pick was told as the request of another: %q", c.Body)
		}
	}
}
