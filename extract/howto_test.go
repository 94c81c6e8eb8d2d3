package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Command lines in the shapes real sessions run project tools in: the
// temp file a run wrote and the pipes after it are not part of how to
// run it; installs, listings, inline scripts and checks are not project
// commands.
func TestProjectCommand(t *testing.T) {
	for _, tc := range []struct{ cmd, clean, dir string }{
		{`npx lighthouse http://localhost:8081/pdp-1/ --output=json --output-path=/tmp/lighthouse-after2.json --chrome-flags="--headless" --only-categories=performance 2>&1 | tail -3`,
			`npx lighthouse http://localhost:8081/pdp-1/ --output=json --chrome-flags="--headless" --only-categories=performance`, ""},
		{"docker compose --profile testing run --rm backstop reference 2>&1 | head -20", "docker compose --profile testing run --rm backstop reference", ""},
		{"make buf-gen FILES=mobile/v1/apis/handset.proto", "make buf-gen FILES=mobile/v1/apis/handset.proto", ""},
		{"cd /repo/services/public-graphql && go generate ./internal/graph/... 2>&1", "go generate ./internal/graph/...", "/repo/services/public-graphql"},
		{"sudo nixos-rebuild switch --flake .#host", "sudo nixos-rebuild switch --flake .#host", ""},
		{"npm run dev", "npm run dev", ""},
		{"npm install", "", ""},
		{"docker ps", "", ""},
		{"docker compose logs -f api", "", ""},
		{"docker run --rm --entrypoint=\"\" backstopjs/backstopjs:6.3.23 which backstopjs", "", ""},
		{`python3 -c "import json; print(1)"`, "", ""},
		{"go test ./...", "", ""},
		{"npx tsc --noEmit", "", ""},
		{"npx --yes lighthouse-mcp --version", "", ""},
		{"git status --short", "", ""},
		{"cd /tmp && ls", "", ""},
		{"make buf-gen && git add -A", "", ""},
		{"go run /tmp/probe.go", "", ""},
		{"./scripts/seed.sh --small 2>&1 | tail -3", "./scripts/seed.sh --small", ""},
		{"node scripts/build-icons.mjs", "node scripts/build-icons.mjs", ""},
	} {
		clean, dir := projectCommand(tc.cmd)
		if clean != tc.clean || dir != tc.dir {
			t.Errorf("projectCommand(%q) = %q %q, want %q %q", tc.cmd, clean, dir, tc.clean, tc.dir)
		}
	}
}

// A project command the agent ran that worked more than once, or that
// the person asked for by name and that worked in the end, is how the
// project is run; one that worked once, or failed last, is not.
func TestProjectRuns(t *testing.T) {
	bash := func(cmd string, st transcript.Status) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: cmd, Status: st}}
	}
	lh := func(out string) string {
		return "npx lighthouse http://localhost:8081/pdp/ --output=json --output-path=/tmp/" + out + " --only-categories=performance 2>&1 | tail -3"
	}
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  []string
	}{
		{"audited twice", []transcript.Turn{
			bash(lh("baseline.json"), transcript.OK),
			bash("yarn build 2>&1 | tail -5", transcript.OK),
			bash(lh("after.json"), transcript.OK),
		}, []string{"- run: `npx lighthouse http://localhost:8081/pdp/ --output=json --only-categories=performance`"}},
		{"once is no evidence", []transcript.Turn{
			bash("docker compose --profile testing run --rm backstop reference", transcript.OK),
			bash("docker ps", transcript.OK),
			bash("docker ps", transcript.OK),
		}, nil},
		{"failed last", []transcript.Turn{
			bash("make seed", transcript.OK),
			bash("make seed", transcript.OK),
			bash("make seed", transcript.Failed),
		}, nil},
		{"a probe thrown away", []transcript.Turn{
			bash("python3 /repo/check_layout.py", transcript.OK),
			bash("./scripts/seed.sh --small 2>&1 | tail -3", transcript.OK),
			bash("python3 /repo/check_layout.py", transcript.OK),
			bash("./scripts/seed.sh --small", transcript.OK),
			bash("rm /repo/check_layout.py", transcript.OK),
		}, []string{"- run: `./scripts/seed.sh --small`"}},
		{"a short list", []transcript.Turn{
			bash("make a", transcript.OK), bash("make b", transcript.OK), bash("make c", transcript.OK),
			bash("make d", transcript.OK), bash("make e", transcript.OK),
			bash("make a", transcript.OK), bash("make b", transcript.OK), bash("make c", transcript.OK),
			bash("make d", transcript.OK), bash("make e", transcript.OK),
			bash("make c", transcript.OK), bash("make e", transcript.OK), bash("make a", transcript.OK), bash("make b", transcript.OK),
		}, []string{"- run: `make a`", "- run: `make b`", "- run: `make c`", "- run: `make e`"}},
		{"asked for by name", []transcript.Turn{
			{Speaker: transcript.Person, Text: "npm run dev"},
			bash("npm run dev", transcript.Failed),
			bash("npm install", transcript.OK),
			bash("npm run dev", transcript.OK),
		}, []string{"- run: `npm run dev`"}},
	} {
		s := &transcript.Session{Agent: "claude-code", Cwd: "/repo", Turns: tc.turns}
		var got []string
		for _, h := range projectRuns(s) {
			got = append(got, h.line())
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: projectRuns = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The agent hands the person one command and the person says it is
// done: that command works here. Two commands, or a reply that is not a
// "done", say nothing.
func TestGivenAndDone(t *testing.T) {
	for _, tc := range []struct {
		agent, person, want string
	}{
		{"Ready for `make buf-gen`.", "done", "make buf-gen"},
		{"Run it from the repo root:\n\n```bash\nmake start-environment\n```", "ok done!", "make start-environment"},
		{"Now you need to run `make buf-gen` to regenerate.", "should we use string or Timestamp", ""},
		{"Run `make buf-gen` and then `make mocks`.", "done", ""},
		{"Apply it with `nixos-rebuild switch --flake .#host`.", "it worked", "nixos-rebuild switch --flake .#host"},
		{"Open it with:\n\n```bash\nopen backstop/html_report/index.html\n```", "done", ""},
	} {
		s := &transcript.Session{Agent: "claude-code", Turns: []transcript.Turn{
			{Speaker: transcript.Agent, Text: tc.agent},
			{Speaker: transcript.Person, Form: transcript.Said, Text: tc.person},
		}}
		var got string
		if hs := givenAndDone(s); len(hs) == 1 {
			got = hs[0].cmd
		}
		if got != tc.want {
			t.Errorf("givenAndDone(%q, %q) = %q, want %q", tc.agent, tc.person, got, tc.want)
		}
	}
}

// The commands memory holds, beside the checks, the project commands the
// session showed working and the services a check needs.
func TestExtractCommandsHowTo(t *testing.T) {
	s := &transcript.Session{Agent: "claude-code", Cwd: "/repo", Turns: []transcript.Turn{
		{Speaker: transcript.Agent, Text: "Ready for `make buf-gen`."},
		{Speaker: transcript.Person, Text: "done"},
		{Speaker: transcript.Agent, Call: &transcript.Call{ID: "t1", Tool: "Bash", Command: "cd services/api && go test ./... 2>&1", Status: transcript.OK}},
		{Speaker: transcript.Agent, Call: &transcript.Call{ID: "t2", Tool: "Bash", Command: "go generate ./internal/graph/...", Status: transcript.OK}},
		{Speaker: transcript.Agent, Call: &transcript.Call{ID: "t3", Tool: "Bash", Command: "go generate ./internal/graph/... 2>&1", Status: transcript.OK}},
		{Speaker: transcript.Person, Form: transcript.Pasted, Text: "db_test.go:40: dial tcp 127.0.0.1:5432: connect: connection refused\nFAIL"},
		{Speaker: transcript.Agent, Text: "Those are unrelated to this PR."},
	}}
	cs := extractCommands(s)
	if len(cs) != 1 {
		t.Fatalf("extractCommands = %d candidates, want 1", len(cs))
	}
	for _, want := range []string{
		"- test: `go test ./...` (in `services/api`)",
		"- run: `go generate ./internal/graph/...` (in `services/api`)",
		"- run: `make buf-gen` (the person ran it when the agent asked)",
		"- needs: Postgres on 127.0.0.1:5432",
	} {
		if !strings.Contains(cs[0].Body, want) {
			t.Errorf("commands memory lacks %q:\n%s", want, cs[0].Body)
		}
	}
}
