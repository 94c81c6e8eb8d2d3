package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// alternating is a conversation of the agent's and the person's words
// in turn, the agent first.
func alternating(said ...string) *transcript.Session {
	lines := make([]string, len(said))
	for i, text := range said {
		lines[i] = []string{"A: ", "P: "}[i%2] + text
	}
	return conversation(lines...)
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

const twoWays = "For many rows there are two ways:\n\n" +
	"1. **`SELECT` + `UPDATE`** — two statements, a small race window between them\n" +
	"2. **`UpdateReturning` loop** — atomic per row, more round trips\n\n" +
	"The first is fine for one worker. Which do you prefer?"

// A person's pick among alternatives the agent offered in prose is a
// decision: what was chosen, over what, in the person's words.
func TestProseChoices(t *testing.T) {
	for _, tc := range []struct {
		name   string
		said   []string
		chosen string // "" when nothing may be written
		not    string
	}{
		{"names an identifier in words", []string{twoWays, "update returning please, we care about atomicity"},
			"`UpdateReturning` loop", "`SELECT` + `UPDATE`"},
		{"by number", []string{twoWays, "lets go with 2"}, "`UpdateReturning` loop", "`SELECT` + `UPDATE`"},
		{"by place", []string{twoWays, "the first one"}, "`SELECT` + `UPDATE`", "`UpdateReturning`"},
		{"lettered options", []string{"Two options:\n\n**Option A** — compute the totals in the browser\n\n" +
			"**Option B** — store the totals with each invoice\n\nA is simpler. Which feels right to you?", "option B"}, "store the totals with each invoice", "compute the totals"},
		{"inline question, one-word alternative", []string{"I looked at parseIpFromRef. Should I split the ref on the colon, or use a regex?",
			"regex, the refs vary too much"}, "use a regex", "split the ref on the colon"},
		{"typo of a one-word alternative", []string{"Both suites pass. Which assertion library do we keep — testify or gocheck?", "testfy obviously"},
			"testify", "gocheck"},
		{"offer of the other way", []string{"Retries use raw numbers today.\n\nIf you prefer a typed retry policy (instead of raw backoff numbers), " +
			"we can add a retry section and have the client build the backoff from it.", "ok let's go with the typed retry policy. Then update the docs."},
			"a typed retry policy", "raw backoff numbers"},
		{"versus in an offer", []string{"Both layouts work with the ORM.\n\nIf you want, I can sketch the tables next (per-tenant vs shared schema).",
			"Per-tenant is fine, each customer gets its own."}, "per-tenant", "shared schema"},

		{"yes to a single offer", []string{"A cache would help most. Want me to add it?", "yes"}, "", ""},
		{"yes to alternatives", []string{twoWays, "yes"}, "", ""},
		{"both", []string{twoWays, "both, one per job"}, "", ""},
		{"a range from a menu", []string{"Cleanups:\n\n1. Drop dead flags\n2. Rename the config type\n3. Split main.go\n4. Add a doc.go\n\nWant me to implement any of them?", "do 1-3"}, "", ""},
		{"a menu, not alternatives", []string{"Ideas:\n\n- **Dark theme** for the viewer\n- **Compact mode** in the list\n\nAny of these appeal?", "the compact mode"}, "", ""},
		{"a question back", []string{twoWays, "is find one and update atomic?"}, "", ""},
		{"turned down", []string{twoWays, "not the find one and update loop, it is overkill"}, "", ""},
		{"deferred", []string{"Should the sweeper run in the web process, or in the worker process?", "we worry about the sweeper later"}, "", ""},
		{"asks about the person, not a choice", []string{"What are you after?\n\n1. **Set up the database** locally?\n2. **Run the migrations**?\n\nLet me know which one.", "2"}, "", ""},
		{"a tentative try", []string{"A few spacings:\n\n1. Tight\n2. Roomy, with wider gutters\n\nWant to try any of these?", "lets try 2"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := writtenChoices(alternating(tc.said...))
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

// Answers to numbered questions asked before a piece of work settle its
// details, which the code then holds: readers deleted them as one-off.
func TestProseChoicesNumberedQuestionsAreOneOff(t *testing.T) {
	s := alternating("A few clarifying questions before I start:\n\n1. Should parseHost split the URL, or use a regex?\n"+
		"2. Should the retry count be in the message, or a structured field?\n3. Do you want tests?\n\nYour call on each.",
		"For 1. use the regex / for 2 structured field. 3 later")
	if got := writtenChoices(s); len(got) != 0 {
		t.Errorf("wrote %d for numbered clarifying questions: %+v", len(got), got)
	}
	decisions := alternating("Two decisions to make before we touch anything:\n\n1. Which mock library do we keep — gomock (ours) or mockery (theirs)?\n"+
		"2. Do we want the extra cases from the other branch?", "yeah lets stay on gomock")
	if got := writtenChoices(decisions); len(got) != 1 || !strings.Contains(got[0].Body, "Chosen: gomock") {
		t.Errorf("numbered decisions: %+v", got)
	}
}

// A choice whose question does not say what is chosen reads two ways
// later; one whose question has a header is titled by it.
func TestProseChoicesSubject(t *testing.T) {
	vague := alternating("You're absolutely right! There are cleaner ways.\n\n1. **Use `@args` pattern**\n2. **Pass all args directly**\n\nWhich approach do you prefer?", "1")
	if got := writtenChoices(vague); len(got) != 0 {
		t.Errorf("a choice without its subject was written: %+v", got)
	}
	headed := alternating("Question 2:\n\nLog rotation: Should old logs be compressed, or deleted after a week?", "compressed")
	got := writtenChoices(headed)
	if len(got) != 1 || !strings.HasPrefix(got[0].Title, "Log rotation: ") {
		t.Errorf("headed choice: %+v", got)
	}
	filler := alternating("Quick question first: should old logs be compressed, or deleted after a week?", "compressed")
	if got := writtenChoices(filler); len(got) != 1 || strings.HasPrefix(got[0].Title, "Quick") {
		t.Errorf("a filler lead became the title: %+v", got)
	}
}

// A choice the person goes back on is not kept: a later pick among the same
// alternatives wins, and a pick the agent then refines was a step.
func TestProseChoicesReversed(t *testing.T) {
	got := writtenChoices(alternating(twoWays, "go with 1", "Done with SELECT + UPDATE.", "ok", twoWays, "actually the second one"))
	if len(got) != 1 || !strings.Contains(got[0].Body, "Chosen: `UpdateReturning` loop") {
		t.Errorf("reversed choice: %+v", got)
	}
	refined := alternating("Logos:\n\n1. **Wordmark** — plain text\n2. **Lighthouse art** — nautical\n\nWhich direction feels right?",
		"the lighthouse art", "Two lighthouses:\n\n**Option A** — a lighthouse with a beam\n\n**Option B** — a lighthouse at night\n\nWhich one?", "neither, keep the wordmark")
	if got := writtenChoices(refined); len(got) != 0 {
		t.Errorf("a pick the agent refined was kept: %+v", got)
	}
	turnedDown := alternating("Logos:\n\n1. **Wordmark** — plain text\n2. **Lighthouse art** — nautical\n\nWhich direction feels right?",
		"the lighthouse art", "Here is a first draft of it. How does it look?", "maybe not the lighthouse, it looks busy")
	if got := writtenChoices(turnedDown); len(got) != 0 {
		t.Errorf("a pick the person turned down was kept: %+v", got)
	}
}

// The choice is told once: with what it was chosen over, not again as a
// bare "let's go with".
func TestProseChoiceNotAlsoStated(t *testing.T) {
	s := alternating("If you prefer a typed retry policy (instead of raw backoff numbers), we can add a retry section.", "let's go with a typed retry policy for the client")
	var n int
	for _, c := range extractDecisions(s) {
		if strings.Contains(strings.ToLower(c.Title+c.Body), "typed retry policy") {
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
	got := writtenChoices(alternating(said...))
	if len(got) != maxProseChoices || !strings.Contains(got[len(got)-1].Body, "index") {
		t.Errorf("wrote %d, want the last %d", len(got), maxProseChoices)
	}
}

// "Which do you prefer?" says nothing alone: the question keeps what the
// list was about.
func TestProseChoiceQuestionKeepsItsSubject(t *testing.T) {
	got := writtenChoices(alternating(twoWays, "2"))
	if len(got) != 1 || !strings.Contains(got[0].Body, "Asked: For many rows there are two ways: Which do you prefer?") {
		t.Errorf("choices: %+v", got)
	}
}
