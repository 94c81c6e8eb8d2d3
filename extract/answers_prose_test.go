package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// conversation alternates the agent's and the person's words, the agent
// first.
func conversation(said ...string) *transcript.Session {
	s := &transcript.Session{}
	for i, text := range said {
		sp := transcript.Agent
		if i%2 == 1 {
			sp = transcript.Person
		}
		s.Turns = append(s.Turns, transcript.Turn{Ref: fmt.Sprintf("t%d", i), Speaker: sp, Text: text})
	}
	return s
}

func writtenChoices(s *transcript.Session) []Candidate {
	var out []Candidate
	for _, c := range extractDecisions(s) {
		if c.Confidence >= minConfidence && c.Rule == "person chose among alternatives the agent offered" {
			out = append(out, c)
		}
	}
	return out
}

const twoWays = "For many documents there are two ways:\n\n" +
	"1. **`Find` + `UpdateMany`** — two queries, a small race window between them\n" +
	"2. **`FindOneAndUpdate` loop** — atomic per document, more round trips\n\n" +
	"The first is fine for one job instance. Which do you prefer?"

// A person's pick among alternatives the agent offered in prose is a
// decision: what was chosen, over what, in the person's words.
func TestProseChoices(t *testing.T) {
	for _, tc := range []struct {
		name   string
		said   []string
		chosen string // "" when nothing may be written
		not    string
	}{
		{"names an identifier in words", []string{twoWays, "find one and update please, we care about atomicity"},
			"`FindOneAndUpdate` loop", "`Find` + `UpdateMany`"},
		{"by number", []string{twoWays, "lets go with 2"}, "`FindOneAndUpdate` loop", "`Find` + `UpdateMany`"},
		{"by place", []string{twoWays, "the first one"}, "`Find` + `UpdateMany`", "`FindOneAndUpdate`"},
		{"lettered options", []string{"Two options:\n\n**Option A** — derive the lists from the variants on the client\n\n" +
			"**Option B** — nest colours under each storage size\n\nA is simpler. Which feels right to you?", "option B"}, "nest colours under each storage size", "derive the lists"},
		{"inline question, one-word alternative", []string{"I looked at parseIpFromRef. Should I split the ref on the colon, or use a regex?",
			"regex, the refs vary too much"}, "use a regex", "split the ref on the colon"},
		{"typo of a one-word alternative", []string{"Both files compile. Which test style do we keep — Ginkgo or stdlib?", "ginko obviously"},
			"Ginkgo", "stdlib"},
		{"offer of the other way", []string{"Hooks are raw G-code today.\n\nIf you prefer typed fields for the fan (instead of raw G-code hooks), " +
			"we can add a fan section and have the generators emit the M106 lines.", "ok let's go with typed fields and the generators. Then update the docs."},
			"typed fields for the fan", "raw G-code hooks"},
		{"versus in an offer", []string{"All of that works with the auth library.\n\nIf you want, I can sketch the schema next (one-role vs multi-role).",
			"One role is fine, admins count as editors too."}, "one-role", "multi-role"},

		{"yes to a single offer", []string{"Lazy loading would help most. Want me to add it?", "yes"}, "", ""},
		{"yes to alternatives", []string{twoWays, "yes"}, "", ""},
		{"both", []string{twoWays, "both, one per job"}, "", ""},
		{"a range from a menu", []string{"Some wins:\n\n1. Lazy loading\n2. A poster for the video\n3. Alt text\n4. An h1\n\nWant me to implement any of them?", "do 1-3"}, "", ""},
		{"a menu, not alternatives", []string{"Ideas:\n\n- **Rounded corners** on windows\n- **Memory module** in the bar\n\nAny of these jump out at you?", "the memory module"}, "", ""},
		{"a question back", []string{twoWays, "is find one and update atomic?"}, "", ""},
		{"turned down", []string{twoWays, "not the find one and update loop, it is overkill"}, "", ""},
		{"deferred", []string{"Should the job live in the api binary, or in the consumer binary?", "we worry about the job later"}, "", ""},
		{"asks about the person, not a choice", []string{"What are you trying to do?\n\n1. **Install Docker** on the machine?\n2. **Run the dev container**?\n\nLet me know which one.", "2"}, "", ""},
		{"a tentative try", []string{"A few colourings:\n\n1. Just orange\n2. Orange border, cyan inside\n\nWant to try any of these?", "lets try 2"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := writtenChoices(conversation(tc.said...))
			if tc.chosen == "" {
				if len(got) > 0 {
					t.Fatalf("wrote %q / %q, want nothing", got[0].Title, got[0].Body)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("wrote %d choices, want 1: %+v", len(got), got)
			}
			chosen, not, _ := strings.Cut(strings.SplitN(got[0].Body, "\nChosen: ", 2)[1], "\nNot chosen: ")
			if !strings.Contains(chosen, tc.chosen) || !strings.Contains(not, tc.not) || !strings.HasPrefix(got[0].Body, "Asked: ") {
				t.Errorf("body = %q, want %q chosen over %q", got[0].Body, tc.chosen, tc.not)
			}
		})
	}
}

// Answers to numbered questions make one memory; questions the reply does
// not settle are left out of it.
func TestProseChoicesNumberedQuestions(t *testing.T) {
	s := conversation("Before I write it:\n\n1. Should parseIpFromRef split the ref, or use a regex?\n"+
		"2. Should the status be a plain string, or a structured field?\n3. Do you want tests?\n\nYour call on each.",
		"For 1. use the regex / for 2 structured field. 3 later")
	got := writtenChoices(s)
	if len(got) != 1 {
		t.Fatalf("wrote %d, want one memory for the list: %+v", len(got), got)
	}
	b := got[0].Body
	for _, want := range []string{"Chosen: use a regex / a structured field", "Not chosen: split the ref / a plain string", "parseIpFromRef"} {
		if !strings.Contains(b, want) {
			t.Errorf("body lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(b, "tests") {
		t.Errorf("an unsettled question is in the memory:\n%s", b)
	}
}

// A choice the person goes back on is not kept: a later pick among the same
// alternatives wins, and a pick the agent then refines was a step.
func TestProseChoicesReversed(t *testing.T) {
	got := writtenChoices(conversation(twoWays, "go with 1", "Done with Find + UpdateMany.", "ok", twoWays, "actually the second one"))
	if len(got) != 1 || !strings.Contains(got[0].Body, "Chosen: `FindOneAndUpdate` loop") {
		t.Errorf("reversed choice: %+v", got)
	}
	refined := conversation("Which direction appeals to you?\n\n1. **Slant text** — bold\n2. **Rocket art** — space themed\n\nWhich direction feels right?",
		"the rocket art", "Two rockets:\n\n**Option A** — a rocket with flames\n\n**Option B** — a rocket with a trail\n\nWhich one?", "neither, keep the logo")
	if got := writtenChoices(refined); len(got) != 0 {
		t.Errorf("a pick the agent refined was kept: %+v", got)
	}
	turnedDown := conversation("Which direction appeals to you?\n\n1. **Slant text** — bold\n2. **Rocket art** — space themed\n\nWhich direction feels right?",
		"the rocket art", "Here is a first draft of it. How does it look?", "maybe not the rocket, it looks silly")
	if got := writtenChoices(turnedDown); len(got) != 0 {
		t.Errorf("a pick the person turned down was kept: %+v", got)
	}
}

// The choice is told once: with what it was chosen over, not again as a
// bare "let's go with".
func TestProseChoiceNotAlsoStated(t *testing.T) {
	s := conversation("If you prefer typed fields (instead of raw G-code hooks), we can add a fan section.", "let's go with typed fields for the fan")
	var n int
	for _, c := range extractDecisions(s) {
		if strings.Contains(strings.ToLower(c.Title+c.Body), "typed fields") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d candidates for one choice, want 1", n)
	}
}

// Past a few, a session's picks are its exploring; the last ones stay.
func TestProseChoicesBounded(t *testing.T) {
	var said []string
	for _, what := range []string{"cache", "queue", "session store", "job log", "index"} {
		said = append(said, fmt.Sprintf("Should the %s live in memory, or on disk?", what), "on disk, it must survive restarts")
	}
	got := writtenChoices(conversation(said...))
	if len(got) != maxProseChoices || !strings.Contains(got[len(got)-1].Body, "index") {
		t.Errorf("wrote %d, want the last %d", len(got), maxProseChoices)
	}
}
