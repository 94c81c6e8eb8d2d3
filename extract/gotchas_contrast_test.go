package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// The shape of a Codex session where the person pastes a traceback, the
// agent patches the import, the tests pass, and the reply names the rule
// as "X, not Y" behind a conversational opener.
func contrastSession(reply, patch string) *transcript.Session {
	return &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
		{Ref: "u1", Speaker: transcript.Person, Text: "the app does not start: python -m shop.ui\nTraceback (most recent call last):\n  File \"/repo/shop/ui.py\", line 3, in <module>\n" +
			"ImportError: cannot import name 'Basket' from 'shop.widgets' (/repo/.venv/lib/python3.12/site-packages/shop/widgets.py)"},
		{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/shop/ui.py"}, Status: transcript.OK, Command: patch}},
		{Ref: "c2", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "pytest -q", Status: transcript.OK, Output: "12 passed"}},
		{Ref: "a1", Speaker: transcript.Agent, Text: reply},
	}}
}

const basketPatch = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: shop/ui.py\n@@\n-from shop.widgets import Basket, Shelf\n+from shop.widgets import Shelf\n+from shop.models import Basket\n*** End Patch\nPATCH"

func TestContrastCauseBecomesTheRule(t *testing.T) {
	for _, tc := range []struct {
		name, reply, patch string
		want               string // the title; "" when nothing may be written
	}{
		{"both sides seen", "Good catch — thanks for the traceback. You’re right: Basket must be imported from shop.models, not shop.widgets. I fixed that.",
			basketPatch, "Basket must be imported from shop.models, not shop.widgets"},
		{"the wrong side is not in the failure", "You're right: Basket must be imported from shop.models, not shop.basket.",
			basketPatch, ""},
		{"the fix did not write the right side", "You're right: Basket must be imported from shop.store, not shop.widgets.",
			basketPatch, ""},
		{"words, not names", "These are import errors, not packaging errors, so I fixed the import.",
			basketPatch, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var kept []string
			for _, c := range extractGotchas(contrastSession(tc.reply, tc.patch)) {
				if c.Confidence >= minConfidence {
					kept = append(kept, c.Title)
					if !strings.Contains(c.Body, "Symptom: ImportError: cannot import name 'Basket' from 'shop.widgets'\n") ||
						!strings.Contains(c.Body, "Verified: `pytest` passed afterwards.") || strings.Contains(c.Body, "right:") {
						t.Errorf("body:\n%s", c.Body)
					}
				}
			}
			wantOne(t, kept, tc.want)
		})
	}
}

// A failure the person pastes from their terminal, prompt line and all,
// between lines that read as prose: the first cause offered is wrong (the
// same failure comes back), the second names the binary, the fix writes
// it, and the command at the pasted prompt then runs.
func TestContrastCauseAfterPastedPrompt(t *testing.T) {
	paste := func(bin string) string {
		return "Loading scenarios...\n  - home page\n  - pricing page\n\n❯ docker compose run --rm snapper capture\nChecking pages...\n/src/entry.sh: 4: exec: " + bin + ": not found"
	}
	edit := func(old, new string) *transcript.Call {
		return &transcript.Call{Tool: "Edit", Files: []string{"/repo/snapper/entry.sh"}, Status: transcript.OK,
			Input: map[string]any{"old_string": "exec " + old + " --config=/src/cfg.json", "new_string": "exec " + new + " --config=/src/cfg.json"}}
	}
	s := &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
		{Ref: "u1", Speaker: transcript.Person, Text: paste("snapperjs")},
		{Ref: "a1", Speaker: transcript.Agent, Text: "The shell started by the entrypoint doesn't have `/usr/local/bin` in its PATH, so I'll use the full path."},
		{Ref: "c1", Speaker: transcript.Agent, Call: edit("snapperjs", "/usr/local/bin/snapperjs")},
		{Ref: "u2", Speaker: transcript.Person, Text: paste("/usr/local/bin/snapperjs")},
		{Ref: "c2", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "docker run --rm --entrypoint=/bin/sh snapper/snapper:2 -c 'ls /usr/local/bin'", Status: transcript.OK, Output: "snapper"}},
		{Ref: "a2", Speaker: transcript.Agent, Text: "The binary is `snapper`, not `snapperjs`. Let me fix `entry.sh` and check it runs:"},
		{Ref: "c3", Speaker: transcript.Agent, Call: edit("/usr/local/bin/snapperjs", "/usr/local/bin/snapper")},
		{Ref: "c4", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "docker compose run --rm snapper capture 2>&1 | tail -5", Status: transcript.OK, Output: "capture done"}},
	}}
	var kept []string
	for _, c := range extractGotchas(s) {
		if c.Confidence < minConfidence {
			continue
		}
		kept = append(kept, c.Title)
		for _, want := range []string{"Symptom: /src/entry.sh: 4: exec: /usr/local/bin/snapperjs: not found\n", "Verified: `docker compose run --rm snapper capture` ran afterwards."} {
			if !strings.Contains(c.Body, want) {
				t.Errorf("body lacks %q:\n%s", want, c.Body)
			}
		}
	}
	if len(kept) != 1 || kept[0] != "The binary is `snapper`, not `snapperjs`" {
		t.Errorf("got %q, want only the binary's name (the PATH cause did not hold)", kept)
	}
}

func TestDropChatLead(t *testing.T) {
	for in, want := range map[string]string{
		"You're right: the key is `id`, not `uuid`.":          "the key is `id`, not `uuid`.",
		"You’re right: the key is `id`, not `uuid`.":          "the key is `id`, not `uuid`.",
		"Good catch — the key is `id`, not `uuid`.":           "the key is `id`, not `uuid`.",
		"Good catch: thanks for the log. The key is `id`.":    "The key is `id`.",
		"Thanks for the traceback, the import was wrong.":     "the import was wrong.",
		"Goodness, the import was wrong.":                     "Goodness, the import was wrong.",
		"Rightly or not, the import was wrong.":               "Rightly or not, the import was wrong.",
		"The root cause is the catch block swallowing errors": "The root cause is the catch block swallowing errors",
	} {
		if got := dropChatLead(in); got != want {
			t.Errorf("dropChatLead(%q) = %q, want %q", in, got, want)
		}
	}
}
