package bench

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// TestFixtures runs the capture hooks run on sessions we wrote in the
// shapes real agents write (testdata/capture/fixtures), each with its
// labels: every important item captured, nothing forbidden written, no
// memory failing a check, and nothing written that no label accounts for.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob(golden.Path("capture", "fixtures", "*.jsonl"))
	if len(files) < 4 {
		t.Fatalf("fixtures missing: %v", files)
	}
	labels, err := LoadLabels(golden.Path("capture", "fixture-labels"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), files, Options{Labels: labels, Capture: DefaultCapture, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.Print(&out, true)
	t.Log("\n" + out.String())
	for _, s := range rep.Sessions {
		if labels[s.File] == nil {
			t.Errorf("%s has no labels", s.File)
		}
		if s.Error != "" {
			t.Errorf("%s: capture failed: %s", s.File, s.Error)
		}
		for _, f := range s.Failures {
			t.Errorf("%s: %s: %s", s.File, f.Class, f.Text)
		}
		for _, m := range s.Written {
			if m.Verdict != Keep && m.Verdict != Useful {
				t.Errorf("%s: %s %q is %s", s.File, m.Kind, m.Title, m.Verdict)
			}
		}
		for _, it := range s.Missed {
			t.Errorf("%s: missed %s %s %v", s.File, it.ID, it.Class, it.Any)
		}
	}
}

func TestItemMatching(t *testing.T) {
	it := Item{Kinds: []string{"decision"}, Any: []string{"sqlite + instead of", "better-sqlite3"}}
	for _, tt := range []struct {
		kind, text string
		want       bool
	}{
		{"decision", "Use SQLite  instead of JSON files", true},
		{"decision", "We picked better-sqlite3", true},
		{"decision", "Use SQLite for storage", false},
		{"thread", "Use SQLite instead of JSON", false},
	} {
		if got := it.matches(tt.kind, tt.text); got != tt.want {
			t.Errorf("%s %q: %v", tt.kind, tt.text, got)
		}
	}
	if (Item{Any: []string{"tabs"}}).matches("session", "uses TABS") != true {
		t.Error("an item with no kinds matches any kind, case-insensitively")
	}
}

// A title naming __main__.py is not a markdown remnant; one left with
// bold markers is.
func TestGarbledTitles(t *testing.T) {
	for title, garbled := range map[string]bool{
		"Gcode subcommands were registered twice in `opk/cli/__main__.py`": false,
		"Keep __init__ imports light":                                      false,
		"Always** run the linter before commits":                           true,
		"__Never edit__ generated files":                                   true,
		"- run the tests":                                                  true,
	} {
		got := slices.Contains(checks(&schema.Memory{Title: title}, &transcript.Session{}), ClassGarbled)
		if got != garbled {
			t.Errorf("%q garbled = %v, want %v", title, got, garbled)
		}
	}
}
