package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
)

const lintJSON = "Here are the findings:\n\n```json\n[\n  {\"file\": \"queue.go\", \"line\": 40, \"summary\": \"lock held across send\"}\n]\n```\n\nThe first one matters most."

const lintList = "**1. Lock held across send** — `queue.go:40`\nThe mutex stays locked while the channel blocks.\n\nThe first one matters most."

// The person objecting to the form of the agent's answers, when the agent
// concedes and changes it, is how they want answers: a user preference.
// A question about what an answer says is not.
func TestFormObjections(t *testing.T) {
	for _, tc := range []struct {
		name  string
		said  []string
		title string // "" when nothing may be written
	}{
		{"json, conceded, answered as a list", []string{"go review the queue changes", lintJSON, "why are you just giving me json?", "Sorry about that. Here they are:\n\n" + lintList},
			"Readable answers, not raw JSON"},
		{"table, conceded", []string{"compare the two drivers", "| driver | speed |\n|---|---|\n| pgx | fast |\n| pq | slower |", "stop giving me tables",
			"You're right. pgx is the faster of the two and the one still maintained; pq is in maintenance mode."}, "Answers in prose, not tables"},
		{"a question about the content", []string{"go review the queue changes", lintJSON, "why is the json missing the second finding?", "Sorry, I dropped it:\n\n" + lintList}, ""},
		{"about the code, not the answer", []string{"add a health endpoint", "Done:\n\n```json\n{\"ok\": true}\n```", "why are you returning json from the health endpoint?", "Sorry, plain text is simpler there. Changed it."}, ""},
		{"not conceded", []string{"go review the queue changes", lintJSON, "why are you giving me json?", "The review tool returns JSON, so I passed it on as is."}, ""},
		{"conceded but still json", []string{"go review the queue changes", lintJSON, "why are you giving me json?", "Sorry! Here it is again:\n\n```json\n[{\"file\": \"queue.go\"}]\n```"}, ""},
		{"no json was given", []string{"go review the queue changes", lintList, "why are you giving me json?", "Sorry, I did not mean to. Here it is again:\n\n" + lintList}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Candidate
			for _, c := range written(conversation(prefixed(tc.said)...)) {
				if strings.Contains(c.Rule, "form of the agent's answer") {
					got = append(got, c)
				}
			}
			if tc.title == "" {
				if len(got) > 0 {
					t.Fatalf("wrote %q / %q, want nothing", got[0].Title, got[0].Body)
				}
				return
			}
			if len(got) != 1 || got[0].Title != tc.title || got[0].Kind != schema.KindPreference || got[0].Scope != schema.ScopeUser {
				t.Fatalf("got %+v, want the user preference %q", got, tc.title)
			}
			if !strings.Contains(got[0].Body, tc.said[2]) || len(got[0].Turns) != 3 {
				t.Errorf("body %q, turns %v: want the person's words and the three turns", got[0].Body, got[0].Turns)
			}
		})
	}
}

// prefixed marks turns as the person's and the agent's in turn, the person first.
func prefixed(said []string) []string {
	out := make([]string, len(said))
	for i, s := range said {
		out[i] = []string{"P: ", "A: "}[i%2] + s
	}
	return out
}
