package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

func TestExtractUntracked(t *testing.T) {
	ignorePatch := func(lines ...string) transcript.Turn {
		patch := "*** Begin Patch\n*** Update File: .gitignore\n@@\n node_modules/\n+" + strings.Join(lines, "\n+") + "\n*** End Patch"
		return callTurn(&transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/.gitignore"}, Input: map[string]any{"input": patch}})
	}
	ignoreEdit := callTurn(&transcript.Call{Tool: "Edit", Files: []string{"/repo/.gitignore"},
		Input: map[string]any{"file_path": "/repo/.gitignore", "old_string": "node_modules/\n", "new_string": "node_modules/\n*.sqlite3\n"}})
	rmCached := ran("git rm --cached -r var/cache data/dev.sqlite3", "rm 'var/cache/a'\nrm 'data/dev.sqlite3'")
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"a patch ignores what git rm --cached dropped", []transcript.Turn{said("stop tracking the cache"),
			ignorePatch("# local state", "var/cache/", "*.sqlite3"), rmCached}, "Kept out of git: var/cache/, *.sqlite3"},
		{"an edit that adds a name pattern", []transcript.Turn{said("untrack the db"), ignoreEdit, rmCached}, "Kept out of git: *.sqlite3"},
		{"ignored, but nothing tracked was dropped", []transcript.Turn{said("ignore the cache"), ignorePatch("var/cache/")}, ""},
		{"dropped, but not ignored", []transcript.Turn{said("untrack it"), ignorePatch("logs/"), rmCached}, ""},
		{"git rm without --cached deletes the files", []transcript.Turn{said("remove it"), ignorePatch("var/cache/"),
			ran("git rm -r var/cache", "rm 'var/cache/a'")}, ""},
		{"a denied git rm --cached", []transcript.Turn{said("untrack it"), ignorePatch("var/cache/"),
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "git rm --cached -r var/cache", Status: transcript.NotRun}}}, ""},
		{"a patch that writes other files too is not read", []transcript.Turn{said("untrack it"),
			callTurn(&transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/.gitignore", "/repo/README.md"},
				Input: map[string]any{"input": "*** Begin Patch\n*** Update File: .gitignore\n+var/cache/\n*** End Patch"}}), rmCached}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range extractUntracked(&transcript.Session{Cwd: "/repo", Turns: tc.turns}) {
				got = append(got, c.Title)
				if !strings.Contains(c.Body, "data/dev.sqlite3") {
					t.Errorf("body %q does not name the dropped file", c.Body)
				}
			}
			wantOne(t, got, tc.want)
		})
	}
}

func TestIgnoredBy(t *testing.T) {
	for _, tc := range []struct {
		path, pattern string
		want          bool
	}{
		{"var/cache/a", "var/cache/", true},
		{"var/cache/a", "/var/cache", true},
		{"sub/var/cache/a", "var/cache/", false}, // a slash anchors it at the root
		{"deep/dir/x.swp", "*.swp", true},        // no slash: any depth
		{".config/kitty/.kitty.conf.swp", ".config/kitty/*.swp", true},
		{"notes.txt", "*.swp", false},
	} {
		if got := ignoredBy(tc.path, []string{tc.pattern}); got != tc.want {
			t.Errorf("ignoredBy(%q, %q) = %v, want %v", tc.path, tc.pattern, got, tc.want)
		}
	}
}
