package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

func TestUnresolvedWarnings(t *testing.T) {
	const warn = "WARNING: Two migration folders share the number 0007: 0007-invoices 0007-accounts\nRename one of the folders to keep them apart.\n"
	const reply = "Done: the migration runs. Before the next release, resolve the duplicate 0007 migration folders the tool warns about."
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"printed twice, left by the last reply", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn+"ok"), ran("./migrate status", warn+"2 applied"), replied(reply),
		}, "Unresolved: Two migration folders share the number 0007: 0007-invoices 0007-accounts"},
		{"printed once is not enough", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn+"ok"), replied(reply),
		}, ""},
		{"the reply does not name it", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn), ran("./migrate status", warn), replied("Done: the migration runs and the tests pass."),
		}, ""},
		{"the reply calls it harmless", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn), ran("./migrate status", warn),
			replied("The warning about duplicate 0007 migration folders is harmless; nothing needs to change."),
		}, ""},
		{"the reply says it was fixed", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn), ran("./migrate status", warn),
			replied("I fixed the warning about the duplicate 0007 migration folders by renaming one of them."),
		}, ""},
		{"the person spoke after the reply", []transcript.Turn{
			said("run the migrations"), ran("./migrate up", warn), ran("./migrate status", warn), replied(reply), said("thanks, rename it now"),
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range unresolvedWarnings(&transcript.Session{Cwd: "/repo", Turns: tc.turns}) {
				got = append(got, c.Title)
				if !strings.Contains(c.Body, "Rename one of the folders") {
					t.Errorf("body %q lacks the tool's advice", c.Body)
				}
			}
			wantOne(t, got, tc.want)
		})
	}
}
