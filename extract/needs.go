package extract

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// servicePorts names what usually listens on a well-known local port,
// and the word a command starting it holds.
var servicePorts = map[string][2]string{
	"5432": {"Postgres", "postgres"}, "3306": {"MySQL", "mysql"}, "6379": {"Redis", "redis"},
	"27017": {"MongoDB", "mongo"}, "9092": {"Kafka", "kafka"}, "5672": {"RabbitMQ", "rabbitmq"},
	"9200": {"Elasticsearch", "elasticsearch"}, "11211": {"Memcached", "memcached"},
	"4222": {"NATS", "nats"}, "1433": {"SQL Server", "mssql"}, "26257": {"CockroachDB", "cockroach"},
	"4566": {"LocalStack", "localstack"}, "7687": {"Neo4j", "neo4j"}, "8086": {"InfluxDB", "influx"},
	"2181": {"ZooKeeper", "zookeeper"},
}

// reRefused is a connection refused by a local port, in the shapes Go,
// Node, Python and libpq print it.
var reRefused = lazyre.New(`(?i)(?:(127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0):(\d{2,5})\b[^\n]*?(?:connection refused|econnrefused)|(?:connection refused|econnrefused)[^\n]*?(127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0)[:,\s]+(?:port\s+)?(\d{2,5})\b)`)

// reNotOurs is the agent saying a failure is not the change's doing.
var reNotOurs = lazyre.New(`(?i)\b(?:pre-?existing|unrelated|not related|nothing (?:we|I) (?:broke|changed|touched)|not (?:caused|introduced) by|(?:isn't|is not|not) running|no \w+ (?:is )?running)\b`)

// need is a service a check needs running.
type need struct {
	service, word, port, addr string
	check, suite, start       string // what failed, how to start the service
}

func (n need) line() string {
	what := "some tests fail"
	switch {
	case n.suite != "":
		what = "the tests of `" + n.suite + "` fail"
	case n.check != "":
		what = "`" + n.check + "` fails"
	}
	where, why := "on "+n.addr, "connection refused"
	if n.addr == "" {
		where, why = "running", "cannot connect to the Docker daemon"
	}
	line := fmt.Sprintf("- needs: %s %s: without it %s with `%s`, no fault of the code", n.service, where, what, why)
	if n.start != "" {
		line += fmt.Sprintf("; the agent suggested `%s` to start it", n.start)
	}
	return line
}

// serviceNeeds finds the services the project's checks need running: a
// check (run by the agent, or pasted in by the person) failed with a
// connection refused by a well-known local port, and the agent's next
// words called it no fault of the change. The command the agent then
// gave to start that service, when it names it, goes with it.
func serviceNeeds(s *transcript.Session) []need {
	var out []need
	var pending *need // a refused connection waiting for the agent's verdict
	for _, t := range s.Turns {
		if t.Prior || t.Sidechain {
			continue
		}
		switch {
		case t.Call != nil:
			if t.Call.Status != transcript.Failed || !mayRefuse(t.Call.Output) {
				continue
			}
			if _, cmd, _, ok := verifyCommand(t.Call.Command); ok {
				if n := refused(t.Call.Output, s.Cwd); n != nil {
					n.check, pending = cmd, n
				}
			}
		case t.Speaker == transcript.Person && mayRefuse(t.Text) && reTestFailed.MatchString(t.Text):
			if n := refused(t.Text, s.Cwd); n != nil {
				pending = n
			}
		case t.IsAgent():
			if pending != nil {
				service := pending.service
				if reNotOurs.MatchString(t.Text) && !slices.ContainsFunc(out, func(n need) bool { return n.service == service }) {
					out = append(out, *pending)
				}
				pending = nil
			}
			if len(out) > 0 {
				startCommand(t.Text, out)
			}
		}
	}
	return out
}

// reTestFailed is a test runner's report of a failure, as a person
// pastes it: a server's log with the same refusal is no check.
var reTestFailed = lazyre.New(`\bFAIL(?:ED)?\b|\b\d+ failed\b|✕`)

// mayRefuse is a quick look for what refused reads: most outputs have
// neither word.
func mayRefuse(out string) bool {
	return strings.Contains(out, "efused") || strings.Contains(out, "EFUSED") || strings.Contains(out, "ocker")
}

// reFailedSuite is a test runner naming a suite that failed: Go's
// package line, Jest's and Vitest's file line.
var reFailedSuite = lazyre.New(`(?m)^FAIL[ \t]+([\w@.-]+/[\w@./-]+)`)

// reDockerDown is a check that needed Docker (compose, testcontainers)
// finding no daemon.
var reDockerDown = lazyre.New(`(?i)cannot connect to the docker daemon|could not find a valid docker environment|is the docker daemon running`)

// refused reads a connection refused by a known service's port, or no
// Docker daemon, and the suite that failed of it when the runner names
// it after.
func refused(out, cwd string) *need {
	if m := reDockerDown.FindStringIndex(out); m != nil {
		n := &need{service: "Docker"}
		if f := reFailedSuite.FindStringSubmatch(out[m[1]:]); f != nil {
			n.suite = projectPath(f[1], cwd)
		}
		return n
	}
	for _, m := range reRefused.FindAllStringSubmatchIndex(out, 8) {
		host, port := sub(out, m, 1)+sub(out, m, 3), sub(out, m, 2)+sub(out, m, 4)
		svc, ok := servicePorts[port]
		if !ok {
			continue
		}
		n := &need{service: svc[0], word: svc[1], port: port, addr: host + ":" + port}
		if f := reFailedSuite.FindStringSubmatch(out[m[1]:]); f != nil {
			n.suite = projectPath(f[1], cwd)
		}
		return n
	}
	return nil
}

func sub(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

// projectPath is a Go package path (github.com/org/repo/services/api)
// from the project's directory on (services/api), when the project's
// name is in it.
func projectPath(p, cwd string) string {
	base := path.Base(strings.ReplaceAll(cwd, `\`, "/"))
	if base != "" && base != "." && base != "/" {
		if i := strings.Index(p, "/"+base+"/"); i >= 0 {
			return p[i+len(base)+2:]
		}
	}
	return p
}

// reStarts is a command that brings a service up.
var reStarts = lazyre.New(`^(?:sudo\s+)?(?:docker(?:-compose|\s+compose)\b.*\s(?:up|start|run)\b|docker\s+(?:run|start)\b|podman\s+(?:run|start)\b|brew\s+services\s+start\b|systemctl\s+start\b|service\s+\S+\s+start\b|pg_ctl\b.*\bstart\b)`)

// startCommand gives each need still without one the command the agent
// showed that starts that very service (it names it).
func startCommand(text string, ns []need) {
	for _, m := range reCodeSpan.FindAllStringSubmatch(text, -1) {
		lines := []string{m[1]}
		if m[2] != "" {
			lines = strings.Split(m[2], "\n")
		}
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if !reStarts.MatchString(l) || len(l) > 120 {
				continue
			}
			for i := range ns {
				if ns[i].start == "" && ns[i].word != "" && (strings.Contains(strings.ToLower(l), ns[i].word) || strings.Contains(l, ns[i].port+":")) {
					ns[i].start = l
				}
			}
		}
	}
}
