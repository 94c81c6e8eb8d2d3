package extract

import (
	"slices"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Shapes seen in real sessions: a request carries an aside that steers the
// exchange ("ask me if something is not clear"), or is nothing but one
// ("I didn't mean to interrupt you, continue"). A summary that repeats it
// reads as a standing instruction.
func TestAsides(t *testing.T) {
	for _, tc := range []struct {
		in          string
		ask         string
		substantive bool
	}{
		{"Implement this plan. ask me if something is not clear", "Implement this plan.", true},
		{"I didn't mean to interrupt you, continue", "", false},
		{"Try again, the same thing", "", false},
		{"Add the retry to the consumer. Let me know if the tests need a database.", "Add the retry to the consumer.", true},
		{"Don't make any changes yet. Explain why the consumer drops expires_at on retry", "Explain why the consumer drops expires_at on retry", true},
		// Not asides: a request that only starts like one.
		{"Try the regex parser again with the structured log field and test it separately", "Try the regex parser again with the structured log field and test it separately", true},
		{"Ask the linter why the import block fails gofmt in schema.resolvers_test.go", "Ask the linter why the import block fails gofmt in schema.resolvers_test.go", true},
	} {
		if got := substantive(tc.in); got != tc.substantive {
			t.Errorf("substantive(%q) = %v, want %v", tc.in, got, tc.substantive)
		}
		if !tc.substantive {
			continue
		}
		if got := ask(tc.in); got != tc.ask {
			t.Errorf("ask(%q) = %q, want %q", tc.in, got, tc.ask)
		}
	}
}

// A file written and then removed, itself or with its directory (rm -rf
// dir, mv dir elsewhere), is not a change the session left; one removed
// and written again is.
func TestFilesChangedLeavesRemoved(t *testing.T) {
	write := func(f string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Write", Files: []string{"/repo/" + f}, Status: transcript.OK}}
	}
	run := func(cmd string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: cmd, Status: transcript.OK}}
	}
	s := &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
		write("systems/personal-laptop/default.nix"),
		write("systems/nixos/default.nix"),
		write("backstop/run.sh"),
		write("lib/hosts/nixos/hardware.nix"),
		run("rm -rf systems/personal-laptop"),
		run("rm /repo/backstop/run.sh && mv lib/hosts lib/hardware"),
		write("backstop/run.sh"),
		run("git rm --cached systems/nixos/default.nix"),
	}}
	got := filesChanged(s)
	want := []string{"systems/nixos/default.nix", "backstop/run.sh"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("filesChanged = %q, want %q", got, want)
	}
}

// A session that ended on the agent's question says so: the next session
// should take it up. Generic closers are not questions to take up.
func TestClosingQuestion(t *testing.T) {
	for text, want := range map[string]string{
		"The freeze comes from NVIDIA power management.\n\nShould I add the NVIDIA power management configuration to your hardware config?":    "with the agent asking: Should I add the NVIDIA power management configuration to your hardware config?",
		"Are you done with the font config? For middle-click: what do you need it for specifically, pasting in the terminal or opening links?": "with the agent asking: For middle-click: what do you need it for specifically, pasting in the terminal or opening links?",
		"Done: the role guards are in place. Anything else you want me to look at?":                                                            "",
		"All 55 tests pass.\n\nNext steps: share the tasks file with the stakeholders for sign-off.":                                           "",
	} {
		if got := closing(text); got != want {
			t.Errorf("closing(%q) = %q, want %q", text, got, want)
		}
	}
	if got := closeSentence("with the agent asking: Should I?"); got != "with the agent asking: Should I?" {
		t.Errorf("closeSentence kept a full stop after a question: %q", got)
	}
}

// An edit the session undid is not a change it left: the last edit put
// back what the first replaced (edits of other parts of the file in
// between keep it changed), or git restored the file.
func TestFilesChangedLeavesReverted(t *testing.T) {
	edit := func(f, old, new string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Edit", Files: []string{"/home/u/repo/" + f}, Status: transcript.OK,
			Input: map[string]any{"old_string": old, "new_string": new}}}
	}
	s := &transcript.Session{Cwd: "/home/u/repo", Turns: []transcript.Turn{
		edit("flake.nix", "jaro = import ./systems/jaro inputs;", "jaro = import ./systems/jaro (inputs // { x = 1; });"),
		edit("flake.nix", "jaro = import ./systems/jaro (inputs // { x = 1; });", "jaro = import ./systems/jaro inputs;"),
		edit("base.nix", "cores = 0;", "cores = 0; # modern names"),
		edit("base.nix", "max-jobs = 1;", "max-jobs = 2;"),
		edit("base.nix", "cores = 0; # modern names", "cores = 0;"),
		edit("models.go", "type Outcome struct {", "type Outcome struct { Months string"),
		{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "git checkout -- models.go", Status: transcript.OK}},
		edit("storage.go", "$set", "$dateAdd"),
	}}
	got := filesChanged(s)
	slices.Sort(got)
	if want := []string{"base.nix", "storage.go"}; !slices.Equal(got, want) {
		t.Errorf("filesChanged = %q, want %q", got, want)
	}
}

// Work on the person's own files outside the project (a desktop's
// ~/.config) is where such a session's changes live; the agents' own
// files and scratch space are not.
func TestFilesElsewhere(t *testing.T) {
	write := func(f string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Write", Files: []string{f}, Status: transcript.OK}}
	}
	s := &transcript.Session{Cwd: "/home/vw/Claude", Turns: []transcript.Turn{
		write("/home/vw/.config/waybar/config.jsonc"),
		write("/home/vw/.config/waybar/config.jsonc"),
		write("/home/vw/.config/hypr/hypridle.conf"),
		write("/home/vw/.claude/projects/-home-vw-Claude/memory/MEMORY.md"),
		write("/home/vw/Claude/notes.md"),
		write("/tmp/scratch.sh"),
	}}
	got := filesElsewhere(s)
	if want := []string{"~/.config/waybar/config.jsonc", "~/.config/hypr/hypridle.conf"}; !slices.Equal(got, want) {
		t.Errorf("filesElsewhere = %q, want %q", got, want)
	}
}

// A go-ahead ("Now implement the plan", "Yes, implement this, don't
// bother running precommit") says nothing about the work: the summary
// names the plan it approves or the request before it. A request that
// goes on to say what it wants is its own.
func TestGoAheadMeans(t *testing.T) {
	for text, want := range map[string]bool{
		"Now implement the plan": true,
		"Yes, implement this, don't bother running mix precommit as it isn't working yet": true,
		"Make this happen": true,
		"Make this happen, but call the regular role user not regular":             false,
		"let's make that change, then change back flake.nix, then check the flake": false,
		"lets make those changes to pass the bool through":                         false,
		"Implement retries in the consumer":                                        false,
	} {
		if got := goAhead(text); got != want {
			t.Errorf("goAhead(%q) = %v, want %v", text, got, want)
		}
	}
	s := &transcript.Session{Turns: []transcript.Turn{
		{Ref: "u1", Speaker: transcript.Person, Text: "I would like to use optimistic locks for user update. Is it possible to add a version?"},
		{Ref: "a1", Speaker: transcript.Agent, Text: "Yes: add a version attribute and change optimistic_lock(:version). Want me to implement it?"},
		{Ref: "u2", Speaker: transcript.Person, Text: "Yes, implement this, don't bother running mix precommit"},
		{Ref: "p1", Speaker: transcript.Agent, Source: "plan", Text: "# Shell-WS: Interactive 2D Shell Workspace\n\n## Summary\nA browser UI with a local kernel."},
		{Ref: "u3", Speaker: transcript.Person, Text: "can i get a brief pros/cons comparison of the kernel languages?"},
		{Ref: "a2", Speaker: transcript.Agent, Text: "Rust is faster; Go is simpler."},
		{Ref: "u4", Speaker: transcript.Person, Text: "Now implement the plan"},
	}}
	if got := meant(s, s.Turns[2]); got != s.Turns[0].Text {
		t.Errorf("meant(go-ahead) = %q, want the request it approves", got)
	}
	if got := meant(s, s.Turns[6]); got != "Shell-WS: Interactive 2D Shell Workspace" {
		t.Errorf("meant(implement the plan) = %q, want the plan's title", got)
	}
}

// A file the person attached to a request (an IDE notes it beside the
// message) is what "Implement this plan" means.
func TestReferences(t *testing.T) {
	s := &transcript.Session{Cwd: "/Users/s/code/mapper", Turns: []transcript.Turn{
		{Ref: "r1", Speaker: transcript.Person, Text: "Implement this plan. ask me if something is not clear"},
		{Ref: "r1", Speaker: transcript.Injected, Source: "system-reminder", Text: "The user provided the following references:\n- /Users/s/code/mapper/.github/prompts/plan-trackFailedSubnets.prompt.md\n\nIMPORTANT: this context may or may not be relevant."},
		{Ref: "a1", Speaker: transcript.Agent, Text: "I'll read the plan file."},
		{Ref: "r2", Speaker: transcript.Person, Text: "Now add the structured log field"},
	}}
	if got := references(s, s.Turns[0]); !slices.Equal(got, []string{".github/prompts/plan-trackFailedSubnets.prompt.md"}) {
		t.Errorf("references = %q", got)
	}
	if got := references(s, s.Turns[3]); len(got) != 0 {
		t.Errorf("a request without attachments has references %q", got)
	}
}

// A check still failing at the end says how it fails: a later session's
// summary must not read like an earlier one's with another error.
func TestLeftOpenSaysHowItFails(t *testing.T) {
	exit := 1
	s := &transcript.Session{Turns: []transcript.Turn{
		{Speaker: transcript.Person, Text: "Make the brojo flake platform-agnostic with forAllSystems"},
		{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "nix flake check", Status: transcript.Failed, Exit: &exit,
			Output: "error:\n       … while checking flake output 'nixosConfigurations'\n\n       error: attribute 'nixosModules' missing"}},
	}}
	got := leftOpen(s)
	if len(got) != 1 || got[0] != "`nix flake check` still failing (error: attribute 'nixosModules' missing)" {
		t.Errorf("leftOpen = %q", got)
	}
}

// A session cut off while the agent worked on a log the person pasted is
// named by the log's error, not by its first line (a CI step's name).
func TestEndingNamesPastedFailure(t *testing.T) {
	ci := "Setup\nrun linter\n  Running [/home/runner/work/shop/shop/bin/lint run] ...\n" +
		"  Error: /home/runner/work/shop/shop/api/internal/cart/cart_test.go:9:1: File is not properly formatted (gofmt)\n  1 issues:\n  * gofmt: 1\nugh"
	for _, tc := range []struct {
		name, last, want string
	}{
		{"pasted CI log", ci, "while the agent was still working on: the failure the person pasted (Error: …/internal/cart/cart_test.go:9:1: File is not properly formatted (gofmt))"},
		{"typed request", "Rename the cart service to basket everywhere", "while the agent was still working on: Rename the cart service to basket everywhere"},
	} {
		s := &transcript.Session{Turns: []transcript.Turn{
			{Speaker: transcript.Person, Text: tc.last},
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Read", Status: transcript.OK, Files: []string{"/home/u/shop/api/internal/cart/cart_test.go"}}},
		}}
		if got := ending(s); got != tc.want {
			t.Errorf("%s: ending = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A session the person interrupted names the action they stopped, in the
// agent's own description of it when the harness kept one.
func TestEndingNamesStoppedAction(t *testing.T) {
	encode := &transcript.Call{Tool: "Bash", Command: "for v in a b; do ffmpeg -i $v.webm -crf 37 $v.new.webm; done", Status: transcript.NotRun, Why: "rejected",
		Input: map[string]any{"description": "Re-encode the hero videos at VP9 CRF 37"}}
	bare := &transcript.Call{Tool: "Bash", Command: "make migrate-all", Status: transcript.NotRun, Why: "interrupted"}
	done := &transcript.Call{Tool: "Bash", Command: "make build", Status: transcript.OK}
	interrupt := transcript.Turn{Speaker: transcript.Injected, Source: "interrupt", Text: "[Request interrupted by user for tool use]"}
	for _, tc := range []struct {
		name string
		call *transcript.Call
		want string
	}{
		{"described", encode, "the person stopped the agent's last action (Re-encode the hero videos at VP9 CRF 37) before the last request was done"},
		{"no description", bare, "the person stopped the agent's last action (make migrate-all) before the last request was done"},
		{"finished call", done, "interrupted by the person before the last request was done"},
	} {
		s := &transcript.Session{Turns: []transcript.Turn{
			{Speaker: transcript.Person, Text: "Can we cut the weight of the videos?"},
			{Speaker: transcript.Agent, Text: "Backing them up first, then re-encoding."},
			{Speaker: transcript.Agent, Call: tc.call},
			interrupt,
		}}
		if got := ending(s); got != tc.want {
			t.Errorf("%s: ending = %q, want %q", tc.name, got, tc.want)
		}
	}
}
