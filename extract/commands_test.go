package extract

import (
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
