package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/transcript"
)

// Sentences in the shapes agents report in: a finding explains something
// concrete; what was changed, offered, guessed or asked is not one.
func TestReadFinding(t *testing.T) {
	for _, tc := range []struct {
		in       string
		strength int // 0: not a finding
		text     string
	}{
		{"Root cause: `app.ui.window` imported `prefs_dialog` at module import, which pulled in the real Qt and failed (libEGL.so.1).", 2, ""},
		{"That's why — `go generate ./...` from the root walks every package and runs every `//go:generate` directive it finds.", 2, ""},
		{"`protoc-gen-local` is a local plugin (not from the buf registry), which is why it generates the `.ps.go` files.", 2, ""},
		{"Found it — slides with `aria-hidden=\"true\"` get `display: none` from a global CSS rule in main.min.css.", 2,
			"Slides with `aria-hidden=\"true\"` get `display: none` from a global CSS rule in main.min.css."},
		{"The fix is a single Chromium flag that maps `localhost` to `host.docker.internal` inside the browser.", 2, ""},
		{"Cause: the docs job needs `docs/requirements.txt`, which was empty, so mkdocs was never installed.", 2, ""},
		{"You’re right: QAction must be imported from PySide6.QtGui, not QtWidgets.", 3, "QAction must be imported from PySide6.QtGui, not QtWidgets."},
		{"You're absolutely right - the SQLite busy errors occur because several `nix-eval-jobs` workers write the same cache database.", 3,
			"The SQLite busy errors occur because several `nix-eval-jobs` workers write the same cache database."},
		{"`hackney` is pinned to `1.25.0` because `joken_jwks 1.7.0` requires `hackney ~> 1.18`.", 1, ""},
		{"NixOS expects an actual system configuration from `default.nix`, not a function.", 1, ""},
		// Not findings.
		{"I updated `consumer.go` to retry the write because the first attempt can fail.", 0, ""},          // a change log
		{"If you want, I can move `parsePence` into `helpers.go` because gqlgen owns that file.", 0, ""},   // an offer
		{"The lag is probably caused by the `useNodes` sync loop re-rendering every node.", 0, ""},         // a guess
		{"Why does `init_workspace` fail on 3.10 because of the import?", 0, ""},                           // a question
		{"Cause: importing `init_workspace` behaved inconsistently on 3.10 in source mode.", 0, ""},        // vague
		{"The build failed because the network was down during the first run of the job.", 0, ""},          // nothing concrete
		{"Same root cause in `buildVariants` attributes.", 0, ""},                                          // leans on the last one
		{"`.zprofile`: remove `GREP_OPTIONS`, guard the brew eval so it only runs if brew exists.", 0, ""}, // a step to take
		{"I’m using the `liveview` skill for this turn because we are editing `core_components.ex` templates.", 0, ""},
		{"The service tests need updating — they don't expect `ContractMonths` in the outcome.", 0, ""}, // a todo
		{"The `DoAndReturn` assertions will become `Expect` calls inside the callback.", 0, ""},         // a plan
	} {
		f, ok := readFinding(tc.in)
		if ok != (tc.strength > 0) || f.strength != tc.strength {
			t.Errorf("readFinding(%q) = %v, strength %d; want strength %d", tc.in, ok, f.strength, tc.strength)
			continue
		}
		if tc.text != "" && f.text != tc.text {
			t.Errorf("readFinding(%q) text = %q, want %q", tc.in, f.text, tc.text)
		}
	}
}

// One note per session: the plainest findings of the reports the person
// did not contradict, in the order said, pinned to the session.
func TestExtractFindings(t *testing.T) {
	person := func(text string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Person, Text: text, Ref: "p" + text[:4]}
	}
	agent := func(ref, text string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Text: text, Ref: ref}
	}
	s := &transcript.Session{ID: "0199e4a5-5b78", Agent: "codex", Start: time.Date(2025, 10, 14, 22, 34, 0, 0, time.UTC), Turns: []transcript.Turn{
		person("The GUI crashes at start, here is the traceback"),
		agent("a1", "Looking at the traceback now."),
		agent("a2", "Root cause: `app/ui/window.py` imported QAction from QtWidgets, which moved to QtGui in Qt6.\n\nI fixed the import and added a smoke test."),
		person("Why do the docs fail to deploy?"),
		agent("a3", "The deploy job fails because `docs/requirements.txt` is empty, so mkdocs is never installed."),
		person("No, that's wrong, the file has mkdocs in it"),
		agent("a4", "Right, it is there. The job uses `working-directory: docs`, so it expects `docs/mkdocs.yml`, which is missing."),
	}}
	got := extractFindings(s)
	if len(got) != 1 {
		t.Fatalf("extractFindings = %d candidates, want 1", len(got))
	}
	c := got[0]
	if c.URI == nil || c.URI.Path != "patterns/learned-2025-10-14-0199e4a5" {
		t.Errorf("URI = %v, want the session's own patterns/learned-… file", c.URI)
	}
	if !strings.HasPrefix(c.Title, "`app/ui/window.py` imported QAction") {
		t.Errorf("title = %q, want the named cause", c.Title)
	}
	for _, want := range []string{"imported QAction from QtWidgets", "expects `docs/mkdocs.yml`"} {
		if !strings.Contains(c.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, c.Body)
		}
	}
	if strings.Contains(c.Body, "requirements.txt") {
		t.Errorf("body keeps a finding the person contradicted:\n%s", c.Body)
	}
	if c.Confidence < minConfidence {
		t.Errorf("confidence %.2f under the capture threshold", c.Confidence)
	}
	if strings.Index(c.Body, "QAction") > strings.Index(c.Body, "mkdocs.yml") {
		t.Errorf("findings out of the order said:\n%s", c.Body)
	}
}

// A session whose agent explains nothing has no findings note.
func TestExtractFindingsNone(t *testing.T) {
	s := &transcript.Session{ID: "x", Turns: []transcript.Turn{
		{Speaker: transcript.Person, Text: "Rename the config loader", Ref: "p1"},
		{Speaker: transcript.Agent, Text: "Renamed `loadConfig` to `readConfig` in config.go and updated its callers.", Ref: "a1"},
	}}
	if got := extractFindings(s); len(got) != 0 {
		t.Errorf("extractFindings = %+v, want none", got)
	}
}
