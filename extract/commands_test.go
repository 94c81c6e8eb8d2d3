package extract

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Command lines in the shapes real sessions run checks in.
func TestVerifyCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd, kind, clean, dir string
	}{
		{"go test ./internal/... -run TestX -v 2>&1 | tail -20", "test", "go test ./internal/...", ""},
		{"cd services/handset && go build ./...", "build", "go build ./...", "services/handset"},
		// The wrapper is how the tools are found: it stays.
		{"nix develop -c just test", "test", "nix develop -c just test", ""},
		{"nix develop .#ci --command cargo test --manifest-path kernel/Cargo.toml", "test", "nix develop .#ci --command cargo test --manifest-path kernel/Cargo.toml", ""},
		{"uv run pytest -q tests/test_cli.py", "test", "uv run pytest", ""},
		// A time limit is not part of the check.
		{"timeout 60s nix run ./tests#run . -- --jobs 1", "test", "nix run ./tests#run . -- --jobs 1", ""},
		{"nix develop -c cargo run", "", "", ""},
		{"npm run dev", "", "", ""},
	} {
		kind, clean, dir, ok := verifyCommand(tc.cmd)
		if ok != (tc.kind != "") || kind != tc.kind || clean != tc.clean || dir != tc.dir {
			t.Errorf("verifyCommand(%q) = %q %q %q %v, want %q %q %q", tc.cmd, kind, clean, dir, ok, tc.kind, tc.clean, tc.dir)
		}
	}
}

// A check killed by its own time limit did not fail: it is no open
// thread, and the summary says it was stopped.
func TestTimedOutCheck(t *testing.T) {
	s := &transcript.Session{Turns: []transcript.Turn{
		{Speaker: transcript.Person, Text: "Run the nixos-hardware tests for the p14s profile"},
		{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "timeout 60s nix run ./tests#run . -- --jobs 2",
			Status: transcript.Failed, Output: "error (ignored): error: SQLite database is busy\nerror: interrupted by the user"}},
	}}
	if c, open := failingAtEnd(s); open {
		t.Errorf("a timed-out run became a thread: %q", c.Title)
	}
	got := checksLine(s)
	if len(got) != 1 || got[0] != "the last test run (`nix run ./tests#run . -- --jobs 2`) was stopped by its time limit before it finished" {
		t.Errorf("checksLine = %q", got)
	}
}

// A check whose directory the session took away afterwards (its flake
// moved to the root) is not a command to run next time; one run there
// after the move is.
func TestRunsMovedAway(t *testing.T) {
	bash := func(cmd string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: cmd, Status: transcript.OK}}
	}
	s := &transcript.Session{Cwd: "/repo", Turns: []transcript.Turn{
		bash("cd systems/nixos && nix flake check"),
		bash("cd services/api && go test ./..."),
		bash("rm systems/nixos/flake.nix systems/nixos/flake.lock"),
		bash("nix flake check"),
	}}
	var got []string
	for _, r := range runs(s) {
		got = append(got, r.dir+": "+r.cmd)
	}
	want := []string{"services/api: go test ./...", ": nix flake check"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("runs = %q, want %q", got, want)
	}
}

// A project tool command that fails inside the agent's sandbox and runs
// escalated is how to run it here (Codex sessions of an Elixir project:
// every mix task needs the sandbox lifted); a git push needing the
// network is not the project's, and a check is listed with the checks.
func TestNeedEscalation(t *testing.T) {
	call := func(cmd string, st transcript.Status, esc bool, out string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: cmd, Status: st, Escalated: esc, Output: out}}
	}
	pubsub := "** (RuntimeError) failed to start Mix.PubSub, reason: {{:shutdown, {:failed_to_start_child, Mix.PubSub.Subscriber, :eperm}}, " + strings.Repeat("x", 400) + "}\n    (mix 1.19.5) lib/mix/pubsub.ex:36: Mix.PubSub.start/0"
	s := &transcript.Session{Turns: []transcript.Turn{
		call("mix hex.outdated", transcript.Failed, false, pubsub),
		call("mix hex.outdated", transcript.Failed, true, "Dependency  Current  Latest\nreq  0.5.1  0.5.2"),
		call("git push origin main", transcript.Failed, false, "fatal: unable to access: Could not resolve host (sandbox)"),
		call("git push origin main", transcript.OK, true, ""),
		call("mix test", transcript.Failed, false, pubsub),
		call("mix test", transcript.OK, true, "3 tests, 0 failures"),
		call("mix deps.get", transcript.OK, true, ""),
	}}
	got := needEscalation(s)
	if len(got) != 1 || got[0].cmd != "mix hex.outdated" || !strings.HasPrefix(got[0].why, "** (RuntimeError) failed to start Mix.PubSub") {
		t.Errorf("needEscalation = %+v, want mix hex.outdated with the Mix.PubSub error", got)
	}
}

// Claude Code keeps one shell across Bash calls: a check run after a cd
// in an earlier call ran in that directory (the same `go build ./...` is
// not two commands from two directories), until the shell is reset. A
// subagent has its own shell; Codex runs each call in its workdir.
func TestRunsShellDir(t *testing.T) {
	bash := func(cmd string, st transcript.Status, out string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: cmd, Status: st, Output: out}}
	}
	side := bash("go vet ./...", transcript.OK, "")
	side.Sidechain = true
	for _, tc := range []struct {
		name  string
		agent string
		turns []transcript.Turn
		want  []string
	}{
		{"cd lasts", "claude-code", []transcript.Turn{
			bash("cd /repo/services/handset && go build ./... 2>&1", transcript.OK, ""),
			bash("go build ./... 2>&1 && go test ./internal/storage/... 2>&1", transcript.OK, "ok"),
			side,
		}, []string{"services/handset: go build ./...", ": go vet ./..."}},
		// Claude Code moves its shell only when the call passed.
		{"a failed call does not move", "claude-code", []transcript.Turn{
			bash("cd systems/nixos && nix flake check", transcript.Failed, "error: infinite recursion"),
			bash("cd systems/nixos && nix flake check", transcript.OK, ""),
			bash("npm run build", transcript.OK, ""),
			{Speaker: transcript.Person, Call: &transcript.Call{Tool: "Bash", Command: "cd ../../", Status: transcript.Unknown, ByPerson: true}},
			bash("nix flake check", transcript.OK, ""),
		}, []string{"systems/nixos: nix flake check", "systems/nixos: npm run build", ": nix flake check"}},
		{"reset by the agent", "claude-code", []transcript.Turn{
			bash("cd /elsewhere && git log -1", transcript.OK, "abc\nShell cwd was reset to /repo"),
			bash("go test ./...", transcript.OK, ""),
			bash("cd /repo && go test ./...", transcript.OK, ""),
		}, []string{": go test ./..."}},
		{"codex keeps nothing", "codex", []transcript.Turn{
			bash("cd kernel && cargo build", transcript.OK, ""),
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "shell", Command: "cargo test", Status: transcript.OK, Input: map[string]any{"workdir": "/repo/ui"}}},
		}, []string{"kernel: cargo build", "ui: cargo test"}},
	} {
		s := &transcript.Session{Agent: tc.agent, Cwd: "/repo", Turns: tc.turns}
		var got []string
		for _, r := range runs(s) {
			got = append(got, r.dir+": "+r.cmd)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: runs = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A check the person runs shows as the prompt line of the output they
// paste; other pasted prompt lines and commands they only mention do not.
func TestPersonChecks(t *testing.T) {
	s := &transcript.Session{Turns: []transcript.Turn{
		{Speaker: transcript.Person, Form: transcript.Pasted, Text: "why does this fail?\n$ make lint\nMakefile:12: warning: overriding commands\n* typecheck: 1\nmake: *** [lint] Error 1"},
		{Speaker: transcript.Person, Text: "$ ls -la\ntotal 0"},
		{Speaker: transcript.Person, Text: "should I run make test before pushing?"},
		{Speaker: transcript.Person, Text: "again:\n$ make lint\n* typecheck: 1"},
		{Speaker: transcript.Person, Text: "  $ cd api && go test ./...\nok"},
	}}
	got := personChecks(s)
	want := []string{"- lint: `make lint` (the person runs it)"}
	if !slices.Equal(got, want) {
		t.Fatalf("personChecks = %q, want %q", got, want)
	}
}
