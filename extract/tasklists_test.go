package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// boxes is a task list with open and done boxes.
func boxes(open, done int) string {
	var b strings.Builder
	b.WriteString("# Tasks: invoice export\n\n## Phase 1\n")
	for i := range done {
		fmt.Fprintf(&b, "- [x] T%03d Add the exporter in `export/csv.go`\n", i+1)
	}
	for i := range open {
		fmt.Fprintf(&b, "- [ ] T%03d Wire the command in `cmd/export.go`\n", done+i+1)
	}
	return b.String()
}

func callTurn(c *transcript.Call) transcript.Turn {
	c.Status = transcript.OK
	return transcript.Turn{Speaker: transcript.Agent, Call: c}
}

func wrote(file, text string) transcript.Turn {
	return callTurn(&transcript.Call{Tool: "Write", Files: []string{file}, Input: map[string]any{"file_path": file, "content": text}})
}

func patched(file, text string) transcript.Turn {
	patch := "*** Begin Patch\n*** Add File: " + file + "\n+" + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n+") + "\n*** End Patch"
	return callTurn(&transcript.Call{Tool: "ApplyPatch", Files: []string{file}, Input: map[string]any{"input": patch}})
}

func ran(cmd, out string) transcript.Turn {
	return callTurn(&transcript.Call{Tool: "Bash", Command: cmd, Output: out})
}

func TestTaskLists(t *testing.T) {
	const f = "/repo/specs/004-export/tasks.md"
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"a new list written by Write", []transcript.Turn{said("/tasks"), wrote(f, boxes(12, 0))},
			"specs/004-export/tasks.md lists 12 tasks, none done yet"},
		{"a list added by a patch", []transcript.Turn{said("/tasks"), patched(f, boxes(9, 0))},
			"specs/004-export/tasks.md lists 9 tasks, none done yet"},
		{"written by a heredoc", []transcript.Turn{said("/tasks"), ran("cat <<'EOF' > specs/004-export/tasks.md\n"+boxes(6, 0)+"EOF", "")},
			"specs/004-export/tasks.md lists 6 tasks, none done yet"},
		{"some done", []transcript.Turn{said("/tasks"), wrote(f, boxes(4, 8))},
			"specs/004-export/tasks.md has 4 of 12 tasks still open"},
		{"a rewrite that lost the checked boxes", []transcript.Turn{
			said("/tasks"), ran("cat specs/004-export/tasks.md", boxes(0, 20)), wrote(f, boxes(15, 0)),
		}, ""}, // told as a thread of its own: TestOverwrittenLists
		{"all done", []transcript.Turn{said("/tasks"), wrote(f, boxes(0, 10))}, ""},
		{"a note with two boxes is no task list", []transcript.Turn{said("notes"), wrote(f, boxes(2, 0))}, ""},
		{"boxes checked by a later edit", []transcript.Turn{said("/tasks"), wrote(f, boxes(7, 0)), edited(f, "- [x] T001")}, ""},
		{"a list outside the project", []transcript.Turn{said("/tasks"), wrote("/tmp/scratch/tasks.md", boxes(7, 0))}, ""},
		{"a failed write", []transcript.Turn{said("/tasks"), {Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Write",
			Files: []string{f}, Status: transcript.Failed, Input: map[string]any{"content": boxes(7, 0)}}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range taskLists(&transcript.Session{Cwd: "/repo", Turns: tc.turns}) {
				got = append(got, p.line)
			}
			wantOne(t, got, tc.want)
		})
	}
}

func TestOverwrittenLists(t *testing.T) {
	const f = "/repo/specs/004-export/tasks.md"
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"a rewrite that lost the checked boxes", []transcript.Turn{
			said("/tasks"), ran("cat specs/004-export/tasks.md", boxes(0, 20)), wrote(f, boxes(15, 0)),
		}, "Task list specs/004-export/tasks.md overwritten: 20+ done, now 15 open"},
		{"a rewrite of a list with two done is no loss worth a thread", []transcript.Turn{
			said("/tasks"), ran("cat specs/004-export/tasks.md", boxes(8, 2)), wrote(f, boxes(15, 0)),
		}, ""},
		{"a rewrite that kept its checked boxes", []transcript.Turn{
			said("/tasks"), ran("cat specs/004-export/tasks.md", boxes(0, 20)), wrote(f, boxes(5, 20)),
		}, ""},
		{"a new list", []transcript.Turn{said("/tasks"), wrote(f, boxes(12, 0))}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range overwrittenLists(&transcript.Session{Cwd: "/repo", Turns: tc.turns}) {
				got = append(got, c.Title)
				if c.Kind != schema.KindThread || c.Status != schema.StatusOpen || len(c.Turns) != 1 {
					t.Errorf("candidate %+v: want one open thread with its evidence turn", c)
				}
			}
			wantOne(t, got, tc.want)
		})
	}
}
