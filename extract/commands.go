package extract

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// What a verification command does.
const (
	verifyTest  = "test"
	verifyBuild = "build"
	verifyLint  = "lint"
)

var verifyRes = []struct {
	kind string
	re   *lazyre.Regexp
}{
	{verifyTest, lazyre.New(`^(?:\S+=\S+\s+)*(?:go test|gotestsum|ginkgo|pytest|python3? -m pytest|py\.test|tox|npm (?:run )?test|npx (?:vitest|jest|playwright test)|yarn test|pnpm (?:run )?test|bun test|deno test|vitest|jest|cargo (?:test|nextest)|make (?:test|check)|just test|mix test|rspec|bundle exec rspec|rails test|php(?:unit| artisan test)|dotnet test|mvn test|gradle test|\./gradlew test|ctest|swift test|backstop test|nix run \S*tests#run)\b`)},
	{verifyLint, lazyre.New(`^(?:\S+=\S+\s+)*(?:golangci-lint|make (?:lint|fmt|vet)|just (?:lint|fmt)|go vet|gofmt|eslint|npx eslint|(?:npm|pnpm|yarn) run (?:lint|typecheck|format|check|verify)|pnpm (?:run )?lint|yarn lint|ruff|flake8|mypy|pyright|black|prettier|npx prettier|mix (?:format|credo|precommit|dialyzer)|cargo (?:clippy|fmt)|pre-commit run|shellcheck|tsc --noEmit|npx tsc)\b`)},
	{verifyBuild, lazyre.New(`^(?:\S+=\S+\s+)*(?:go build|cargo (?:build|check)|npm run build|pnpm (?:run )?build|yarn build|bun run build|npx vite build|vite build|tsc\b|make(?:$| build| all)|just build|mix compile|nix (?:flake check|build)|nixos-rebuild (?:build|switch|test)|home-manager (?:build|switch)|darwin-rebuild (?:build|switch)|docker(?:-compose| compose) build|mvn (?:package|compile|verify)|gradle build|\./gradlew build|mkdocs build|hugo\b|dotnet build)\b`)},
}

// verifyKind says whether a command tests, builds or lints the project.
func verifyKind(cmd string) (string, bool) {
	for _, v := range verifyRes {
		if v.re.MatchString(cmd) {
			return v.kind, true
		}
	}
	return "", false
}

var (
	reTimeout   = lazyre.New(`^timeout\s+(?:-\w+\s+)*\d+[smh]?\s+`)
	reWrapper   = lazyre.New(`^(?:nix develop(?:\s+[^-\s]\S*)?\s+(?:-c|--command)|nix-shell --run|(?:poetry|pipenv|uv|pdm|hatch|rye)\s+run|bundle exec|direnv exec \S+|devbox run)\s+`)
	reCd        = lazyre.New(`^cd\s+("[^"]+"|'[^']+'|\S+)$`)
	reSetup     = lazyre.New(`^(?:source|\.|export|set|nvm use|pyenv|conda activate|echo|sleep|clear|true|pwd)\b`)
	reRedirect  = lazyre.New(`\s*(?:\d?>>?\s*&?\S+|\d?>&\d)`)
	reShellTail = lazyre.New(`\s*(?:\|\|?|;)\s*(?:tail|head|grep|tee|less|more|cat|sort|wc|sed|awk|jq|echo|true|exit)\b.*$`)
	reNoise     = lazyre.New(`<<|\$\(|` + "`" + `|\bsleep\b|\bkill\b|\s--?(?:version|help|collect-only|co)\b|\s-h\b`)
)

// timedOut reports a check that failed under a time limit it set itself
// (timeout 30s ...): killed before it finished, it says nothing about the
// project.
func timedOut(c *transcript.Call) bool {
	if c.Status != transcript.Failed {
		return false
	}
	for _, seg := range splitSegments(c.Command) {
		seg = strings.TrimSpace(seg)
		if reCd.MatchString(seg) || reSetup.MatchString(seg) {
			continue
		}
		return reTimeout.MatchString(seg)
	}
	return false
}

// verifyCommand finds the verification in a shell command line: the part
// that tests, builds or lints, without the cd before it or the pipes and
// redirections after it. dir is where it ran when a cd said so.
func verifyCommand(cmd string) (kind, clean, dir string, ok bool) {
	if strings.Contains(cmd, "\n") || reNoise.MatchString(cmd) {
		return "", "", "", false
	}
	for _, seg := range splitSegments(cmd) {
		if m := reCd.FindStringSubmatch(seg); m != nil {
			dir = strings.Trim(m[1], `"'`)
			continue
		}
		if reSetup.MatchString(seg) {
			continue
		}
		seg = strings.TrimSpace(reShellTail.ReplaceAllString(seg, ""))
		seg = strings.TrimSpace(reRedirect.ReplaceAllString(seg, ""))
		seg = strings.TrimSpace(reTimeout.ReplaceAllString(seg, ""))
		// A check run through an environment wrapper (nix develop -c, uv
		// run) is that check; the wrapper stays: outside it the tools are
		// missing.
		if k, yes := verifyKind(reWrapper.ReplaceAllString(seg, "")); yes {
			return k, canonical(seg), dir, true
		}
		return "", "", "", false // the first real command is something else
	}
	return "", "", "", false
}

// reSubset are flags that run part of a check or change its verbosity:
// the command that builds or tests the project is the same without them.
var reSubset = lazyre.New(`\s+(?:-run[= ]\S+|-count[= ]\d+|-v|-vv|-q|-x|--quiet|--verbose|-k[= ]\S+|--lf|--ff|-p[= ]\d+|--no-cache|-timeout[= ]\S+|-failfast|--tb[= ]\S+)\b`)

// canonical is a check's command without subset flags or the files it
// was pointed at: `mix format lib/a.ex` is `mix format`.
func canonical(cmd string) string {
	fields := strings.Fields(reSubset.ReplaceAllString(" "+cmd, ""))
	kept := fields[:0]
	for i, f := range fields {
		// A file a flag needs (--manifest-path kernel/Cargo.toml) is part
		// of the command; one a check was pointed at is not.
		if reFileArg.MatchString(f) && !(i > 0 && strings.HasPrefix(fields[i-1], "--") && !strings.Contains(fields[i-1], "=")) {
			continue
		}
		kept = append(kept, f)
	}
	out := strings.Join(kept, " ")
	if strings.Count(out, `"`)%2 == 1 || strings.Count(out, "'")%2 == 1 {
		out = strings.TrimRight(out, `"'`) // the end of a quoted bash -c
	}
	return out
}

var reFileArg = lazyre.New(`^[\w./-]+\.(?:go|py|ts|tsx|js|jsx|rs|ex|exs|rb|php|java|kt|json|ya?ml|toml|md|css|scss|html|heex|nix|sh)(?::\d+)?$`)

// splitSegments cuts a command line at && and ; outside quotes.
func splitSegments(cmd string) []string {
	if !strings.ContainsAny(cmd, ";&") {
		return []string{strings.TrimSpace(cmd)} // most command lines: no copy
	}
	var out []string
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ';' || (c == '&' && i+1 < len(cmd) && cmd[i+1] == '&'):
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
			if c == '&' {
				i++
			}
			continue
		}
		b.WriteByte(c)
	}
	return append(out, strings.TrimSpace(b.String()))
}

// run is a verification command and how it last ended in the session.
type run struct {
	kind, cmd, dir string
	status         transcript.Status
	escalated      bool // passed only outside the sandbox
	sandboxed      bool // failed in the sandbox
	call           *transcript.Call
	at             int // index of the last call among the session's calls
}

// runs lists the session's verification commands in order of first use,
// each with its last real outcome.
func runs(s *transcript.Session) []*run {
	var out []*run
	by := map[string]*run{}
	dirs := shellDirs(s)
	for i, c := range s.Calls() {
		if c.Command == "" {
			continue
		}
		kind, cmd, dir, ok := verifyCommand(c.Command)
		if !ok {
			continue
		}
		if dir = rel(s, within(dirs[c], dir)); dir == "." {
			dir = "" // the session's directory, however it was named
		}
		key := dir + "\x00" + cmd
		r := by[key]
		if r == nil {
			r = &run{kind: kind, cmd: cmd, dir: dir, status: transcript.Unknown}
			by[key] = r
			out = append(out, r)
		}
		r.at = i
		switch c.Status {
		case transcript.OK, transcript.Failed:
			r.status, r.call = c.Status, c
			if c.Status == transcript.OK && c.Escalated && r.sandboxed {
				r.escalated = true
			}
		case transcript.NotRun:
			if c.Why == "sandbox" || sandboxFailure(c.Output) {
				r.sandboxed = true
			}
		}
		if c.Status == transcript.Failed && sandboxFailure(c.Output) {
			r.sandboxed = true
		}
	}
	removed := removedFiles(s)
	return slices.DeleteFunc(out, func(r *run) bool { return movedAway(r.dir, r.at, removed) })
}

// buildFiles are the files that make a directory a place a check runs.
var buildFiles = []string{"flake.nix", "go.mod", "package.json", "Cargo.toml", "pyproject.toml", "setup.py", "Makefile", "justfile", "mix.exs", "Gemfile", "pom.xml", "build.gradle"}

// movedAway reports a check's directory taken away after its last run:
// the directory removed, or its build file (a flake moved to the root). A
// command to run there would fail next session.
func movedAway(dir string, at int, removed map[string]int) bool {
	if dir == "" || dir == "." || strings.HasPrefix(dir, "..") || isAbs(dir) {
		return false
	}
	if gone(dir, at, removed) {
		return true
	}
	for _, f := range buildFiles {
		if i, ok := removed[path.Join(dir, f)]; ok && i > at {
			return true
		}
	}
	return false
}

// reWorked is the person saying which command worked.
var reWorked = lazyre.New(`(?i)\b(?:this|that|it) (?:worked|works)\s*:\s*(.+)$`)

var reSandboxFail = lazyre.New(`(?i)(\beperm\b|operation not permitted|sandbox)`)

func sandboxFailure(out string) bool { return reSandboxFail.MatchString(out) }

// reEnvironment are failures of the machine, not of the project: the
// sandbox refused, a service the check needs is not running, no network.
var reEnvironment = lazyre.New(`(?i)(\beperm\b|operation not permitted|sandbox|connection refused|econnrefused|could not connect to (?:server|the server|database)|is the server running|no such host|could not resolve host|temporary failure in name resolution|network is unreachable|cannot connect to the docker daemon)`)

func environmentFailure(out string) bool { return reEnvironment.MatchString(out) }

// extractCommands keeps the commands that built, tested or linted the
// project in this session, in one memory the project keeps.
func extractCommands(s *transcript.Session) []Candidate {
	var lines []string
	var tools []string
	listed := map[string]bool{}
	for _, r := range broadest(runs(s)) {
		line := fmt.Sprintf("- %s: `%s`", r.kind, r.cmd)
		if r.dir != "" && r.dir != "." {
			line += fmt.Sprintf(" (in `%s`)", r.dir)
		}
		if r.escalated {
			line += "; fails inside the agent's sandbox, passes with escalated permissions"
		}
		lines = append(lines, line)
		tools = append(tools, r.call.ID)
		if r.dir == "" {
			listed[r.cmd] = true
		}
	}
	for _, e := range needEscalation(s) {
		lines = append(lines, fmt.Sprintf("- run: `%s`; fails inside the agent's sandbox (%s), runs with escalated permissions", e.cmd, e.why))
		tools = append(tools, e.call.ID)
		listed[e.cmd] = true
	}
	for _, h := range append(projectRuns(s), givenAndDone(s)...) {
		if listed[h.cmd] {
			continue
		}
		listed[h.cmd] = true
		lines = append(lines, h.line())
		if h.call != nil {
			tools = append(tools, h.call.ID)
		}
	}
	for _, l := range personChecks(s) {
		if cmd := strings.Trim(strings.SplitN(l, "`", 3)[1], "`"); !listed[cmd] {
			listed[cmd] = true
			lines = append(lines, l)
		}
	}
	for _, n := range serviceNeeds(s) {
		lines = append(lines, n.line())
	}
	for _, t := range s.Said() {
		if m := reWorked.FindStringSubmatch(t.Text); m != nil {
			cmd := strings.Trim(strings.TrimSpace(m[1]), "`.")
			if len(cmd) >= 4 && len(cmd) <= 160 && !strings.Contains(cmd, "\n") {
				lines = append(lines, fmt.Sprintf("- run: `%s` (the person said it works)", cmd))
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	u := schema.URI{Scope: schema.ScopeProject, Path: "patterns/build-and-test-commands"}
	return []Candidate{{Kind: schema.KindPattern, Scope: schema.ScopeProject, URI: &u, Title: "How to build and test this project",
		Summary: "Commands that built, tested, linted or ran the project in agent sessions, and the services its checks need.",
		Body:    "Commands that passed:\n\n" + strings.Join(lines, "\n"), Tags: []string{"commands", "how-to"},
		Tools: tools, Rule: "a check passed, a project command worked, or a check missed a service", Confidence: 0.8, Time: s.End}}
}

// broadest keeps, of the passing checks, at most two per program (go
// test, pytest, mix format): the ones run from the top and over the most.
func broadest(rs []*run) []*run {
	by := map[string][]*run{}
	var order []string
	for _, r := range rs {
		if r.status != transcript.OK {
			continue
		}
		f := strings.Fields(r.cmd)
		prog := r.kind + " " + strings.Join(f[:min(2, len(f))], " ")
		if by[prog] == nil {
			order = append(order, prog)
		}
		by[prog] = append(by[prog], r)
	}
	var out []*run
	for _, p := range order {
		list := by[p]
		slices.SortStableFunc(list, func(a, b *run) int { return breadth(a) - breadth(b) })
		out = append(out, list[:min(2, len(list))]...)
	}
	return out
}

// breadth orders checks: from the project's top, over ./... , with the
// fewest arguments first.
func breadth(r *run) int {
	n := len(strings.Fields(r.cmd)) * 2
	if r.dir != "" && r.dir != "." {
		n += 3
	}
	if strings.Contains(r.cmd, "./...") {
		n -= 2
	}
	return n + strings.Count(r.cmd, "/")
}

// rel makes a path relative to the session's directory when inside it.
// Windows paths are compared as Windows compares them, whatever system
// reads the transcript.
func rel(s *transcript.Session, p string) string {
	if p == "" {
		return p
	}
	cwd := s.Cwd
	if winPath(p) || winPath(cwd) {
		p, cwd = strings.ReplaceAll(p, `\`, "/"), strings.ReplaceAll(cwd, `\`, "/")
		if winPath(p) && cwd != "" && len(p) > len(cwd) && strings.EqualFold(p[:len(cwd)], cwd) && p[len(cwd)] == '/' {
			return p[len(cwd)+1:]
		}
		return p
	}
	// A Unix transcript's path is absolute on any system reading it.
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "/") {
		return filepath.ToSlash(filepath.Clean(p))
	}
	if cwd == "" {
		return p
	}
	if r, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

var reDrive = lazyre.New(`^[A-Za-z]:[\\/]`)

func winPath(p string) bool { return reDrive.MatchString(p) }

// isAbs reports an absolute path on any system a transcript comes from.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || winPath(p)
}

// shortPath keeps a long path readable: its head and its file name.
func shortPath(p string) string {
	if len(p) <= 60 {
		return p
	}
	dir, file := path.Split(p)
	if len(file) > 48 {
		file = file[:30] + "…" + file[len(file)-12:]
	}
	if len(dir) > 20 {
		dir = dir[:16] + "…/"
	}
	return dir + file
}
