package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Turn builders for the shapes of gotchas fixed without an edit.
func precondRan(ref, cmd string, st transcript.Status, out string) transcript.Turn {
	return transcript.Turn{Ref: ref, Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-" + ref, Tool: "Bash", Command: cmd, Status: st, Output: out}}
}

func precondEscalated(ref, cmd string, st transcript.Status, out string) transcript.Turn {
	t := precondRan(ref, cmd, st, out)
	t.Call.Escalated = true
	return t
}

func precondPatch(ref string, files ...string) transcript.Turn {
	return transcript.Turn{Ref: ref, Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-" + ref, Tool: "ApplyPatch", Files: files, Status: transcript.OK}}
}

func precondAgent(ref, text string) transcript.Turn {
	return transcript.Turn{Ref: ref, Speaker: transcript.Agent, Text: text}
}

func precondPerson(ref, text string) transcript.Turn {
	return transcript.Turn{Ref: ref, Speaker: transcript.Person, Form: transcript.Said, Text: text}
}

// gotchaCases runs the gotchas extractor and keeps the cases a rule
// named by rule prefix wrote.
func precondCases(turns []transcript.Turn, rule string) []Candidate {
	var out []Candidate
	for _, c := range extractGotchas(&transcript.Session{Cwd: "/repo", Agent: "codex", Turns: turns}) {
		if strings.HasPrefix(c.Rule, rule) {
			out = append(out, c)
		}
	}
	return out
}

const branchErr = "ERROR: Not on a release branch. Current branch: main\nRelease branches are named like rel-1.2"

func TestPreconditionSatisfiedByCommand(t *testing.T) {
	fail := precondRan("c1", "scripts/prepare-release.sh --json", transcript.Failed, branchErr)
	pass := precondRan("c4", "scripts/prepare-release.sh --json", transcript.OK, `{"dir":"/repo/releases/rel-1.2"}`)
	checkout := precondRan("c3", "git checkout rel-1.2", transcript.OK, "Switched to branch 'rel-1.2'")
	cases := []struct {
		name  string
		turns []transcript.Turn
		want  int
	}{
		{"checked out, then passed", []transcript.Turn{fail, precondRan("c2", "git status -sb", transcript.OK, "## main"), checkout, pass}, 1},
		{"a file changed in between", []transcript.Turn{fail, checkout, precondPatch("p1", "/repo/scripts/prepare-release.sh"), pass}, 0},
		{"no setup step", []transcript.Turn{fail, precondRan("c2", "git status -sb", transcript.OK, "## main"), pass}, 0},
		{"passed only outside the sandbox", []transcript.Turn{fail, checkout, precondEscalated("c4", "scripts/prepare-release.sh --json", transcript.OK, "{}")}, 0},
		{"the person asked for something else", []transcript.Turn{fail, precondPerson("u1", "Now update the changelog for the next version"), checkout, pass}, 0},
		{"a branch the agent made up to quiet the check", []transcript.Turn{fail, precondRan("c3", "git checkout -b 001-release-fix", transcript.OK, "Switched to a new branch '001-release-fix'"), pass}, 0},
		{"a checkout that restores a file", []transcript.Turn{fail, precondRan("c3", "git checkout -- scripts/common.sh", transcript.OK, ""), pass}, 0},
		{"the declared dependencies installed", []transcript.Turn{
			precondRan("c1", "scripts/prepare-release.sh --json", transcript.Failed, "Error: Cannot find module 'semver'"),
			precondRan("c3", "npm install", transcript.OK, "added 12 packages"), pass}, 0},
		{"a command that never ran", []transcript.Turn{
			{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-c1", Tool: "Bash", Command: "mkdocs build", Status: transcript.NotRun, Why: "not-found", Output: "bash: mkdocs: command not found"}},
			precondRan("c2", "pip install mkdocs", transcript.OK, "Successfully installed mkdocs"),
			precondRan("c3", "mkdocs build", transcript.OK, "INFO - Documentation built"),
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := precondCases(tc.turns, "precondition")
			if len(got) != tc.want {
				t.Fatalf("got %d cases, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 0 {
				return
			}
			c := got[0]
			if !strings.Contains(c.Title, "prepare-release.sh") || !strings.Contains(c.Title, "Not on a release branch") || !strings.Contains(c.Title, "git checkout rel-1.2") {
				t.Errorf("title does not name the command, its error and the step: %q", c.Title)
			}
			if c.Confidence < minConfidence || strings.Join(c.Turns, " ") != "c1 c3 c4" {
				t.Errorf("confidence %.2f, turns %v", c.Confidence, c.Turns)
			}
		})
	}
}

func TestDependencyConflictPinned(t *testing.T) {
	verdict := "Resolving Hex dependencies...\nBecause \"authlib >= 2.0.0\" depends on \"httpc ~> 1.4\" and \"your app\" depends on \"httpc ~> 5.1.0\", \"authlib >= 2.0.0\" is forbidden.\n" +
		"So, because \"your app\" depends on \"authlib ~> 2.0\", version solving failed.\n** (Mix) Hex dependency resolution failed"
	fail := precondEscalated("c2", "mix deps.update --all", transcript.Failed, verdict)
	why := precondAgent("a1", "Dependency resolution failed because `authlib` still requires `httpc ~> 1.4`, which blocks the `httpc 5.x` bump.")
	pass := precondEscalated("c3", "mix deps.update --all", transcript.OK, "* Updating httpc (Hex package)")
	cases := []struct {
		name  string
		turns []transcript.Turn
		want  int
	}{
		{"explained, pinned, passed", []transcript.Turn{precondPatch("p1", "/repo/mix.exs"), fail, why, precondPatch("p2", "/repo/mix.exs"), pass}, 1},
		{"not explained", []transcript.Turn{precondPatch("p1", "/repo/mix.exs"), fail, precondPatch("p2", "/repo/mix.exs"), pass}, 0},
		{"no manifest change", []transcript.Turn{precondPatch("p1", "/repo/mix.exs"), fail, why, precondPatch("p2", "/repo/lib/app.ex"), pass}, 0},
		{"still failing", []transcript.Turn{precondPatch("p1", "/repo/mix.exs"), fail, why, precondPatch("p2", "/repo/mix.exs"), precondEscalated("c3", "mix deps.update --all", transcript.Failed, verdict)}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := precondCases(tc.turns, "dependency conflict")
			if len(got) != tc.want {
				t.Fatalf("got %d cases, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 0 {
				return
			}
			c := got[0]
			if !strings.HasPrefix(c.Title, "`authlib` still requires `httpc ~> 1.4`") {
				t.Errorf("title is not the agent's reason: %q", c.Title)
			}
			// The requirement the agent tried and took back is not the project's.
			if strings.Contains(c.Body, "5.1.0") || !strings.Contains(c.Body, "Fix: changed mix.exs") {
				t.Errorf("body:\n%s", c.Body)
			}
		})
	}
}

func TestCheckThePersonSetAside(t *testing.T) {
	dbDown := "Compiling 12 files (.ex)\n[error] Postgrex.Protocol failed to connect: tcp connect (localhost:5432): connection refused\n** (Mix) The database for Shop.Repo couldn't be created: killed"
	eperm := "** (RuntimeError) failed to start Mix.PubSub, reason: failed to open a TCP socket, reason: :eperm"
	said := precondPerson("u2", "Go ahead and add the field, don't bother running mix check as it isn't working yet.")
	report := precondAgent("a2", "Ran `mix check`. It compiled, then failed at DB setup because Postgres was not reachable (`localhost:5432`), so the tests could not run here.")
	cases := []struct {
		name  string
		turns []transcript.Turn
		want  int
	}{
		{"failed on the database, set aside", []transcript.Turn{
			precondRan("c1", "mix check", transcript.Failed, eperm),
			precondAgent("a1", "`mix check` failed due to sandbox socket restrictions (`:eperm`)."),
			precondEscalated("c2", "mix check", transcript.Unknown, dbDown), report, said}, 1},
		{"only the sandbox stopped it", []transcript.Turn{
			precondRan("c1", "mix check", transcript.Failed, eperm),
			precondAgent("a1", "`mix check` failed due to sandbox socket restrictions (`:eperm`)."), said}, 0},
		{"no word that it is broken", []transcript.Turn{
			precondEscalated("c2", "mix check", transcript.Failed, dbDown), report,
			precondPerson("u2", "Go ahead and add the field, don't bother running mix check this time.")}, 0},
		{"it passed once", []transcript.Turn{
			precondEscalated("c2", "mix check", transcript.Failed, dbDown), report,
			precondEscalated("c3", "mix check", transcript.OK, "12 tests, 0 failures"), said}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := precondCases(tc.turns, "check set aside")
			if len(got) != tc.want {
				t.Fatalf("got %d cases, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 0 {
				return
			}
			c := got[0]
			if c.Title != "`mix check` fails here: Postgres was not reachable (`localhost:5432`)" {
				t.Errorf("title %q", c.Title)
			}
			if !strings.Contains(c.Body, "couldn't be created") || strings.Contains(c.Body, "eperm") {
				t.Errorf("body:\n%s", c.Body)
			}
		})
	}
}

func TestMissingProgramAddedToDependencies(t *testing.T) {
	ciLog := "Run docbuild -W docs site\n/home/runner/work/_temp/a1.sh: line 1: docbuild: command not found\nError: Process completed with exit code 127."
	addReq := transcript.Turn{Ref: "p1", Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-p1", Tool: "ApplyPatch", Status: transcript.OK,
		Files: []string{"/repo/docs/requirements.txt"}, Input: map[string]any{"input": "*** Begin Patch\n*** Update File: docs/requirements.txt\n@@\n-\n+docbuild>=7.2\n*** End Patch"}}}
	addOther := transcript.Turn{Ref: "p1", Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-p1", Tool: "ApplyPatch", Status: transcript.OK,
		Files: []string{"/repo/docs/requirements.txt"}, Input: map[string]any{"input": "*** Begin Patch\n*** Update File: docs/requirements.txt\n@@\n+docbuild-themes\n*** End Patch"}}}
	cases := []struct {
		name  string
		turns []transcript.Turn
		want  int
	}{
		{"reported, then listed", []transcript.Turn{precondPerson("u1", ciLog), addReq}, 1},
		{"the file gained something else", []transcript.Turn{precondPerson("u1", ciLog), addOther}, 0},
		{"the agent's own sandbox lacked it", []transcript.Turn{
			{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{ID: "id-c1", Tool: "Bash", Command: "docbuild docs site", Status: transcript.NotRun, Why: "not-found", Output: "bash: docbuild: command not found"}},
			addReq}, 0},
		{"listed only after a new request", []transcript.Turn{precondPerson("u1", ciLog), precondPerson("u2", "Forget the docs; add a dark theme to the settings page please"), addReq}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := precondCases(tc.turns, "missing program")
			if len(got) != tc.want {
				t.Fatalf("got %d cases, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 1 && got[0].Title != `"docbuild: command not found": docbuild was missing from docs/requirements.txt` {
				t.Errorf("title %q", got[0].Title)
			}
		})
	}
}
