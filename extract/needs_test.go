package extract

import (
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// A check failing with a connection refused by a well-known local port,
// called no fault of the change by the agent, needs that service
// running; the command the agent then gives to start it goes with it.
func TestServiceNeeds(t *testing.T) {
	pasted := "ok      example.com/acme/shop/services/api/events    2.288s\n=== RUN   TestCustomerInDebt\n    db_test.go:70: dial tcp 127.0.0.1:5432: connect: connection refused\n--- FAIL: TestCustomerInDebt (0.00s)\nFAIL\nFAIL    example.com/acme/shop/services/quoting/db    2.358s\n\n why are these tests failing?"
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"pasted, unrelated, started", []transcript.Turn{
			{Speaker: transcript.Person, Form: transcript.Pasted, Text: pasted},
			{Speaker: transcript.Agent, Text: "Those are unrelated to this PR: there's no Postgres running locally."},
			{Speaker: transcript.Agent, Text: "It's in the root `docker-compose.yaml`. Bring it up with:\n\n```\ndocker compose up postgres -d\n```"},
		}, "- needs: Postgres on 127.0.0.1:5432: without it the tests of `services/quoting/db` fail with `connection refused`, no fault of the code; the agent suggested `docker compose up postgres -d` to start it"},
		{"a failing check", []transcript.Turn{
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "npm test 2>&1 | tail -20", Status: transcript.Failed,
				Output: "Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect"}},
			{Speaker: transcript.Agent, Text: "The queue tests fail because Redis is not running; this is pre-existing."},
		}, "- needs: Redis on 127.0.0.1:6379: without it `npm test` fails with `connection refused`, no fault of the code"},
		{"no Docker daemon", []transcript.Turn{
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "go test ./... 2>&1 | tail -30", Status: transcript.Failed,
				Output: "--- FAIL: TestStore (0.01s)\n    store_test.go:22: failed to start container: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\nFAIL\nFAIL\texample.com/acme/shop/internal/store\t0.412s"}},
			{Speaker: transcript.Agent, Text: "The store tests use testcontainers and Docker isn't running here; unrelated to the change."},
			{Speaker: transcript.Agent, Text: "Start it with `docker compose up -d` once Docker Desktop is open."},
		}, "- needs: Docker running: without it the tests of `internal/store` fail with `cannot connect to the Docker daemon`, no fault of the code"},
		{"a server's log is no check", []transcript.Turn{
			{Speaker: transcript.Person, Form: transcript.Pasted, Text: "api-1  | 2026/06/04 13:41:13 dial tcp 127.0.0.1:5432: connect: connection refused\napi-1  | retrying in 5s"},
			{Speaker: transcript.Agent, Text: "The API can't reach Postgres: it is not running in that container."},
		}, ""},
		{"the agent's own bug", []transcript.Turn{
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "go test ./...", Status: transcript.Failed,
				Output: "dial tcp 127.0.0.1:5432: connect: connection refused"}},
			{Speaker: transcript.Agent, Text: "My change opened the pool before the config was read. Fixing."},
		}, ""},
		{"an unknown port", []transcript.Turn{
			{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "go test ./...", Status: transcript.Failed,
				Output: "dial tcp 127.0.0.1:8123: connect: connection refused"}},
			{Speaker: transcript.Agent, Text: "Unrelated to this change."},
		}, ""},
	} {
		s := &transcript.Session{Agent: "claude-code", Cwd: "/Users/dev/src/shop", Turns: tc.turns}
		var got string
		if ns := serviceNeeds(s); len(ns) > 0 {
			got = ns[0].line()
		}
		if got != tc.want {
			t.Errorf("%s: serviceNeeds = %q, want %q", tc.name, got, tc.want)
		}
	}
}
