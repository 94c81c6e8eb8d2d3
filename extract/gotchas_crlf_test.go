package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// The shape of Codex sessions on a Windows checkout: a script fails on
// the carriage return ending its shebang line, nothing is said about it,
// the CRs are stripped and the script runs.
func TestLineEndingsCase(t *testing.T) {
	bash := func(ref, cmd string, st transcript.Status, why, out string) transcript.Turn {
		return transcript.Turn{Ref: ref, Speaker: transcript.Agent, Call: &transcript.Call{ID: ref, Tool: "Bash", Command: cmd, Status: st, Why: why, Output: out}}
	}
	shebang := "/usr/bin/env: ‘bash\\r’: No such file or directory\n/usr/bin/env: use -[v]S to pass options in shebang lines"
	dollar := "tools/sh/make-notes.sh: line 2: $'\\r': command not found\ntools/sh/make-notes.sh: line 7: syntax error near unexpected token `$'in\\r''"
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		title string // "" when nothing may be written
		body  []string
	}{
		{"stripped in place, then ran", []transcript.Turn{
			bash("c1", "tools/sh/make-notes.sh --json", transcript.NotRun, "not-found", shebang),
			bash("c2", "perl -pi -e 's/\\r$//' tools/sh/make-notes.sh", transcript.OK, "", ""),
			bash("c3", "tools/sh/make-notes.sh --json", transcript.OK, "", `{"NOTES":"notes.md"}`),
		}, "`tools/sh/make-notes.sh` has CRLF line endings: strip the \\r first", []string{
			"Symptom: `tools/sh/make-notes.sh --json` failed: /usr/bin/env: ‘bash\\r’: No such file or directory\n",
			"Fix: strip the carriage returns first: `perl -pi -e 's/\\r$//' tools/sh/make-notes.sh`.",
			"Verified: `tools/sh/make-notes.sh --json` ran afterwards.",
		}},
		{"a stripped copy ran", []transcript.Turn{
			bash("c1", "bash tools/sh/make-notes.sh --json", transcript.Failed, "", dollar),
			bash("c2", `tmp=$(mktemp); tr -d '\r' < tools/sh/make-notes.sh > "$tmp"; bash "$tmp" --json`, transcript.OK, "", `{"NOTES":"notes.md"}`),
		}, "`tools/sh/make-notes.sh` has CRLF line endings: strip the \\r first", []string{
			"Verified: `bash \"$tmp\" --json` ran afterwards.",
		}},
		{"two scripts of one folder", []transcript.Turn{
			bash("c1", "tools/sh/make-notes.sh", transcript.NotRun, "not-found", shebang),
			bash("c2", "dos2unix tools/sh/make-notes.sh", transcript.OK, "", ""),
			bash("c3", "tools/sh/check.sh", transcript.NotRun, "not-found", shebang),
			bash("c4", "dos2unix tools/sh/check.sh", transcript.OK, "", ""),
			bash("c5", "tools/sh/check.sh", transcript.OK, "", "ok"),
		}, "Scripts in `tools/sh` have CRLF line endings: strip the \\r first", []string{
			"Seen with: tools/sh/make-notes.sh, tools/sh/check.sh.",
		}},
		{"never ran after the strip", []transcript.Turn{
			bash("c1", "tools/sh/make-notes.sh", transcript.NotRun, "not-found", shebang),
			bash("c2", "perl -pi -e 's/\\r$//' tools/sh/make-notes.sh", transcript.OK, "", ""),
			bash("c3", "tools/sh/make-notes.sh", transcript.Failed, "", "ERROR: not on a feature branch"),
		}, "", nil},
		{"ran without a strip", []transcript.Turn{
			bash("c1", "tools/sh/make-notes.sh", transcript.NotRun, "not-found", shebang),
			bash("c2", "tools/sh/make-notes.sh", transcript.OK, "", "ok"),
		}, "", nil},
		{"no carriage return in the failure", []transcript.Turn{
			bash("c1", "tools/sh/make-notes.sh", transcript.Failed, "", "tools/sh/make-notes.sh: line 2: jq: command not found"),
			bash("c2", "sed -i 's/\\r$//' tools/sh/make-notes.sh", transcript.OK, "", ""),
			bash("c3", "tools/sh/make-notes.sh", transcript.OK, "", "ok"),
		}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &transcript.Session{Cwd: "/repo", Turns: tc.turns}
			var got []string
			for _, c := range extractGotchas(s) {
				if c.Confidence < minConfidence {
					continue
				}
				got = append(got, c.Title)
				for _, want := range tc.body {
					if !strings.Contains(c.Body, want) {
						t.Errorf("body lacks %q:\n%s", want, c.Body)
					}
				}
			}
			switch {
			case tc.title == "" && len(got) > 0:
				t.Errorf("written: %q", got)
			case tc.title != "" && (len(got) != 1 || got[0] != tc.title):
				t.Errorf("got %q, want %q", got, tc.title)
			}
		})
	}
}
