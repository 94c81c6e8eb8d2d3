package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// saidAs, editTurn and patchTurn build the turns of a directed-decision fixture.
func saidAs(ref, text string) transcript.Turn {
	return transcript.Turn{Ref: ref, Speaker: transcript.Person, Text: text}
}

func editTurn(file, old, new string) transcript.Turn {
	return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Edit", Status: transcript.OK, Files: []string{file},
		Input: map[string]any{"file_path": file, "old_string": old, "new_string": new}}}
}

func patchTurn(file, body string) transcript.Turn {
	return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Status: transcript.OK, Files: []string{file},
		Input: map[string]any{"input": "*** Begin Patch\n" + body + "\n*** End Patch"}}}
}

// A choice the person gave as a task, with what it replaces, is a
// decision once the session carried it out, and not before; injected
// text and a choice taken back never make one.
func TestDirectedDecisions(t *testing.T) {
	const (
		removeItem = "Here is the list:\n1. Remove Bulma css. Completely remove bulma and its settings from main.css. We are using plain Pico v2.\n2. Fix the footer."
		insteadOf  = "3. Instead of feather icons add a plugin and dependency for Lucide icons."
		placeRule  = "The pump fields show up twice. They need to be on one tab or the other but not both. Any shared settings (used by every pump) should stay on the General tab, while optional sensors should be placed on the Accesories tab."
	)
	removal := patchTurn("/p/web/main.css", "*** Update File: /p/web/main.css\n@@\n-@import \"bulma/bulma.css\";\n @import \"pico.css\";")
	deleted := patchTurn("/p/web/vendor/bulma.css", "*** Delete File: /p/web/vendor/bulma.css")
	lucide := editTurn("/p/mix.exs", `{:feather, "~> 4.0"}`, `{:lucide_icons, "~> 0.3"}, # Lucide`)
	tabs := editTurn("/p/ui/editor.py", `self.tabs.addTab(w, "Pumps")`, `self.tabs.addTab(g, "General")`+"\n"+`self.tabs.addTab(a, "Accessories")`)
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string // title; "" for none
	}{
		{"removed, in use", []transcript.Turn{saidAs("u1", removeItem), removal, deleted}, "Plain Pico v2, not Bulma css"},
		{"plan first, then go ahead", []transcript.Turn{saidAs("u1", removeItem+"\nMake a plan only, no changes yet."), {Speaker: transcript.Agent, Text: "Plan: 1. drop bulma"}, saidAs("u2", "Go ahead."), removal}, "Plain Pico v2, not Bulma css"},
		{"never removed", []transcript.Turn{saidAs("u1", removeItem), editTurn("/p/web/main.css", "a", "b")}, ""},
		{"removed before it was asked", []transcript.Turn{removal, saidAs("u1", removeItem)}, ""},
		{"taken back", []transcript.Turn{saidAs("u1", removeItem), removal, saidAs("u2", "Actually bring bulma css back, Pico looks bare.")}, ""},
		{"instead of, written", []transcript.Turn{saidAs("u1", insteadOf), lucide}, "Add a plugin and dependency for Lucide icons instead of feather icons"},
		{"instead of, not written", []transcript.Turn{saidAs("u1", insteadOf), editTurn("/p/mix.exs", "a", "b")}, ""},
		{"instead of, injected", []transcript.Turn{{Ref: "i1", Speaker: transcript.Injected, Source: "instructions", Text: insteadOf}, lucide}, ""},
		{"placement, carried out", []transcript.Turn{saidAs("u1", placeRule), tabs}, "Shared settings on the General tab, optional sensors on the Accessories tab, not both"},
		{"placement without not both", []transcript.Turn{saidAs("u1", strings.Replace(placeRule, "They need to be on one tab or the other but not both. ", "", 1)), tabs}, ""},
		{"placement, places never written", []transcript.Turn{saidAs("u1", placeRule), editTurn("/p/ui/editor.py", "a", "b")}, ""},
	} {
		s := &transcript.Session{Cwd: "/p", Turns: tc.turns}
		var got []string
		for _, c := range extractDecisions(s) {
			if c.Confidence >= minConfidence {
				got = append(got, c.Title)
				if !strings.Contains(c.Body, "Carried out in: ") {
					t.Errorf("%s: body says no files: %q", tc.name, c.Body)
				}
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: wrote %q, want none", tc.name, got)
		case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
			t.Errorf("%s: wrote %q, want %q", tc.name, got, tc.want)
		}
	}
}
