package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// conversation builds a session from alternating lines: "P: " for the
// person, "A: " for the agent.
func conversation(lines ...string) *transcript.Session {
	s := &transcript.Session{}
	for i, l := range lines {
		who, text, _ := strings.Cut(l, ": ")
		sp := transcript.Person
		if who == "A" {
			sp = transcript.Agent
		}
		s.Turns = append(s.Turns, transcript.Turn{Ref: "t" + string(rune('a'+i)), Speaker: sp, Text: text})
	}
	return s
}

// written are the rule candidates that pass the threshold.
func written(s *transcript.Session) []Candidate {
	var out []Candidate
	for _, c := range extractRules(s) {
		if c.Confidence >= minConfidence {
			out = append(out, c)
		}
	}
	return out
}

// The person's rules that a reader keeps, in the shapes seen in real
// sessions (written here in other words), and the noise a reader deletes.
func TestRulesKept(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     *transcript.Session
		kind  schema.Kind
		scope schema.Scope
		title string // "" when nothing may be written
	}{
		{
			// A rule said right after the agent's unrelated question corrects
			// the agent; it does not answer the question.
			name: "correction after an unrelated question",
			s: conversation(
				"A: I patched the generated client by hand for now. Is the registry token set in your shell?",
				"P: never hand edit generated code ffs",
				"A: Fair enough. Reverting the patch to the generated client."),
			kind: schema.KindConstraint, scope: schema.ScopeProject, title: "Never hand edit generated code",
		},
		{
			// "When I ask …" is a standing condition; capitals and the
			// agent's apology say the agent keeps missing it.
			name: "shouted standing condition",
			s: conversation(
				"A: The handler lives in the api package, near the router. Want me to change it?",
				"P: WHEN I ASK WHERE SOMETHING IS I WANT THE FILE PATH",
				"A: Sorry. internal/api/router.go:40."),
			kind: schema.KindPreference, scope: schema.ScopeUser, title: "When I ask where something is I want the file path",
		},
		{
			// Said in two prompts in other words: one memory that says so.
			name: "repeated in other words",
			s: conversation(
				"P: give me the file paths when I ask where things are",
				"A: The config loader is in the settings module.",
				"P: when I ask where, I need file paths and line numbers",
				"A: Understood: settings/load.py:12."),
			kind: schema.KindPreference, scope: schema.ScopeUser, title: "Give me the file paths when I ask where things are",
		},
		{
			// Asked for twice, in two prompts: a standing preference.
			name: "plain request repeated",
			s: conversation(
				"P: give me file paths, not descriptions",
				"A: The parser sits next to the lexer.",
				"P: file paths please. give me file paths",
				"A: src/lexer/parse.rs"),
			kind: schema.KindPreference, scope: schema.ScopeUser, title: "Give me file paths",
		},
		{
			// A convention of this repository stays with the project.
			name: "project convention",
			s: conversation(
				"P: from now on write commit messages in this repo with a feat: or fix: prefix",
				"A: Will do."),
			kind: schema.KindConstraint, scope: schema.ScopeProject, title: "From now on write commit messages in this repo with a feat: or fix: prefix",
		},
		{
			// How the person works everywhere goes with the person.
			name: "way of working",
			s: conversation(
				"P: from now on ask me before you commit anything",
				"A: Understood."),
			kind: schema.KindPreference, scope: schema.ScopeUser, title: "From now on ask me before you commit anything",
		},
		{
			name: "pasted git output",
			s: conversation(
				"P: ok look at this\nChanges not staged for commit:\n  modified:   internal/mocks/store.go",
				"A: Those are the regenerated mocks."),
		},
		{
			name: "one-turn task",
			s: conversation(
				"P: Summarize what changed on this branch compared to main",
				"A: Sorry, here is the summary."),
		},
		{
			// A one-turn request the agent merely acknowledges stays out.
			name: "acknowledged task",
			s: conversation(
				"P: Make sure all menu items get tooltips as well.",
				"A: Got it, adding tooltips to every menu item."),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := written(tc.s)
			if tc.title == "" {
				for _, c := range got {
					t.Errorf("wrote %s %q (%.2f, %s)", c.Kind, c.Title, c.Confidence, c.Rule)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("wrote %d rules, want 1: %+v (all: %+v)", len(got), got, extractRules(tc.s))
			}
			c := got[0]
			if c.Kind != tc.kind || c.Scope != tc.scope || c.Title != tc.title {
				t.Errorf("wrote %s/%s %q, want %s/%s %q (%s)", c.Kind, c.Scope, c.Title, tc.kind, tc.scope, tc.title, c.Rule)
			}
		})
	}
}

// A rule said in several prompts is one memory naming every prompt and
// the other wording.
func TestRepeatedRuleIsOneMemory(t *testing.T) {
	s := conversation(
		"P: always update the changelog after each feature",
		"A: Done, the changelog has the export entry.",
		"P: after each feature, update the changelog and commit",
		"A: Updated and committed.")
	got := extractRules(s)
	if len(got) != 1 {
		t.Fatalf("got %d candidates, want 1: %+v", len(got), got)
	}
	c := got[0]
	if len(c.Turns) != 2 || !strings.HasPrefix(c.Body, "always update the changelog after each feature\n\nSaid in 2 prompts") || !strings.Contains(c.Body, "“after each feature, update the changelog and commit”") {
		t.Errorf("repeated rule: turns %v, body:\n%s", c.Turns, c.Body)
	}
}

// A rule said again in words that are no rule of their own is still one
// said in several prompts, and the memory says so in the other prompt's
// words ("said in 2 prompts" alone reads like one prompt counted twice).
func TestRuleSaidAgainInOtherWords(t *testing.T) {
	s := conversation(
		"P: update the changelog and the notes after each feature",
		"A: Added the exporter and its changelog entry.",
		"P: update the notes and changelog with the changes since the last update",
		"A: Done.")
	got := written(s)
	if len(got) != 1 || len(got[0].Turns) != 2 || !strings.HasSuffix(got[0].Body, "\n\nSaid in 2 prompts of this session, also as “update the notes and changelog with the changes since the last update”.") {
		t.Fatalf("got %+v", got)
	}
}

// A prompt sent twice (the second finishing the first) is not the person
// saying it again.
func TestResentPromptIsNoRepeat(t *testing.T) {
	first := "always run the linter before you commit. the docs need a look too"
	for _, tc := range []struct {
		other string
		want  int
	}{
		{first + " and the changelog", 0},
		{"the linter has to run before every commit, remember", 1},
	} {
		said := []transcript.Turn{{Ref: "a", Text: first}, {Ref: "b", Text: tc.other}}
		if got := indexSaid(said).repeats(0, "always run the linter before you commit"); got != tc.want {
			t.Errorf("%q: repeats = %d, want %d", tc.other, got, tc.want)
		}
	}
}

// Sentences that name neither the person nor the agent are not rules about
// working together, though they hold one of its words: pasted output and
// one-turn tasks.
func TestReadRuleLeavesOutNoise(t *testing.T) {
	for _, sent := range []string{
		"Changes not staged for commit",
		"Summarize what changed on this branch compared to main",
		"Proceed to add the export and import subcommands",
	} {
		if r, ok := readRule(sent); ok {
			t.Errorf("%q read as a rule (%.2f, %s)", sent, r.confidence, r.why)
		}
	}
}

func TestConceded(t *testing.T) {
	for reply, want := range map[string]bool{
		"You're right, sorry. I'll ask before changing anything.": true,
		"Fair enough. Reverting the patch.":                       true,
		"Sorry.\n\nIt is in internal/api/router.go:40.":           true,
		"Got it, adding tooltips to every menu item.":             false,
		"Understood. Running the tests now.":                      false,
		"The handler lives in the api package.":                   false,
	} {
		if got := conceded(reply); got != want {
			t.Errorf("conceded(%q) = %v, want %v", reply, got, want)
		}
	}
}
