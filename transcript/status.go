package transcript

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// notRun are results that say a call never really ran, by the reason
// named at the start of the result; they say nothing about the project.
// One expression with a group per reason reads each result once.
var notRunWhy = []string{"rejected", "interrupted", "denied", "blocked", "sandbox", "tool-error", "offline", "not-found"}

var reNotRun = lazyre.New(`(?i)` +
	`(^(?:the user doesn't want to (?:proceed|take this action)|user rejected|rejected by (?:the )?user|exec command rejected|aborted by user|command was rejected))|` +
	`(^(?:\[request interrupted by user|interrupted\b|the operation was (?:cancelled|canceled)))|` +
	`(permission to use \S+ (?:has been|was) denied|requires approval|was not approved|approval (?:was )?denied|not allowed by (?:the )?permission|claude requested permissions)|` +
	`(blocked by (?:a |the )?\S*\s?hook|hook (?:error|denied|blocked)|pretooluse:\S* hook|operation blocked by)|` +
	`(^(?:failed in sandbox|sandbox denied|exec error: sandbox))|` +
	`(^(?:<tool_use_error>|inputvalidationerror|file has not been read yet|file does not exist|file content \(\d+ tokens\) exceeds|string to replace not found|no changes to make|found \d+ matches of the string|error: failed to find expected lines|invalid patch|cancelled: parallel tool call|sibling tool call errored|ripgrep search timed out|error: no such file or directory \(os error))|` +
	`(could not resolve host|temporary failure in name resolution|network is unreachable)|` +
	`(^(?:execution error: io\(.*notfound|\(eval\):\d+: command not found|\S*: command not found|command not found))`)

// notRunHints are words one of which every not-run result holds: most
// results hold none, and are not matched against the expression at all.
var notRunHints = []string{"reject", "interrupt", "denied", "approv", "permission", "hook", "blocked", "sandbox", "tool_use_error",
	"inputvalidation", "file has not", "file does not", "file content", "string to replace", "no changes", "matches of the string",
	"failed to find", "invalid patch", "cancel", "sibling", "ripgrep", "execution error", "not found", "resolve host", "name resolution", "unreachable", "doesn't want"}

// whyNotRun names why a result says its call never ran, or "".
func whyNotRun(head string) string {
	low := strings.ToLower(head)
	if !slices.ContainsFunc(notRunHints, func(h string) bool { return strings.Contains(low, h) }) {
		return ""
	}
	m := reNotRun.FindStringSubmatchIndex(head)
	if m == nil {
		return ""
	}
	for g := range notRunWhy {
		if m[2*(g+1)] >= 0 {
			return notRunWhy[g]
		}
	}
	return ""
}

var (
	reExitCode  = lazyre.New(`(?im)^(?:exit code:? |process exited with code |exit status )(-?\d+)\b`)
	reExitInner = lazyre.New(`(?i)\bexit code:? (-?\d+)`)
)

// exitCodeLine finds the first line that reports an exit code, as
// reExitCode would on the whole output: a case-insensitive pattern has no
// literal prefix for the regexp engine to scan for, so on long outputs only
// lines that can start one are tried.
func exitCodeLine(out string) *int {
	for line := range strings.Lines(out) {
		if c := line[0] | 0x20; c != 'e' && c != 'p' {
			continue
		}
		if m := reExitCode.FindStringSubmatch(line); m != nil {
			return atoiPtr(m[1])
		}
	}
	return nil
}

// classify decides a result's status from what the agent recorded: an
// error flag, an exit code when one is known, and the result text.
func classify(c *Call, isError bool) {
	out := strings.TrimSpace(c.Output)
	// The harness says why a call did not run at the start of its result.
	head := out[:min(len(out), 300)]
	if why := whyNotRun(head); why != "" {
		c.Status, c.Why = NotRun, why
		if c.Exit == nil && why == "sandbox" {
			if m := reExitInner.FindStringSubmatch(out); m != nil {
				c.Exit = atoiPtr(m[1])
			}
			if ranInSandbox(c, out) {
				c.Status, c.Why = Failed, ""
			}
		}
		return
	}
	if c.Exit == nil {
		c.Exit = exitCodeLine(out)
	}
	if (c.Exit == nil || *c.Exit == 0) && !isError && piped(c.Command) && reHiddenFailure.MatchString(out) {
		// "go test ./... | tail" exits with tail's status: the output says
		// how the command before the pipe ended.
		c.Status = Failed
		return
	}
	switch {
	case c.Exit != nil && (*c.Exit == 127 || *c.Exit == 126):
		// The command does not exist, or cannot be executed: nothing ran.
		c.Status, c.Why = NotRun, "not-found"
	case c.Exit != nil && *c.Exit != 0:
		c.Status = Failed
	case c.Exit != nil:
		c.Status = OK
	case isError:
		c.Status = Failed
	default:
		c.Status = OK
	}
}

var (
	reSandboxOutput  = lazyre.New(`(?s)stdout: (.*?), stderr: (.*)$`)
	reSandboxRefusal = lazyre.New(`(?i)(operation not permitted|\beperm\b|permission denied|sandbox|here-document|read-only file system|network is unreachable|could not resolve host)`)
)

// ranInSandbox reads Codex's "failed in sandbox ..." wrapper: when the
// program ran and said what went wrong, it failed like any command; when
// the sandbox refused it (a denied syscall, a write outside the
// workspace, no network) or a patch's here-document broke, it never ran.
func ranInSandbox(c *Call, out string) bool {
	if c.Tool == "ApplyPatch" {
		return false
	}
	m := reSandboxOutput.FindStringSubmatch(out)
	if m == nil {
		return false
	}
	program := strings.TrimSpace(m[1] + "\n" + m[2])
	if program == "" || reSandboxRefusal.MatchString(program) {
		return false
	}
	// "bash: $'\r': command not found" is a script with Windows line
	// endings: it ran, and failed. A missing program did not run.
	return !strings.Contains(program, "command not found") || strings.Contains(program, `$'\r'`)
}

// reHiddenFailure are the lines test runners and compilers print when
// they fail, whatever exit status a pipe leaves.
var reHiddenFailure = lazyre.New(`(?m)^(?:--- FAIL:|FAIL\s|FAIL$|panic: |FAILED |npm ERR!|error(?:\[E\d+\])?: |test result: FAILED)|\[(?:PANICKED|FAIL)\]|\b[1-9]\d* (?:failed|failures?)\b|Tests:\s+[1-9]\d* failed`)

// piped reports a shell command whose status is its last stage's.
func piped(cmd string) bool {
	for i := 0; i < len(cmd); i++ {
		if cmd[i] == '|' && (i+1 == len(cmd) || cmd[i+1] != '|') && (i == 0 || cmd[i-1] != '|') {
			return true
		}
	}
	return false
}

func atoiPtr(s string) *int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &n
}

// maxOutput bounds the result text kept per call: the head says what ran,
// the tail how it ended.
const maxOutput = 6 << 10

// reTerminal are a terminal's escape sequences: colours in test output.
var reTerminal = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[@-Z\\-_]`)

// bound keeps the head and tail of a result, as plain text: without
// terminal escapes or other control characters.
func bound(s string) string {
	s = plainText(s)
	if len(s) <= maxOutput {
		return s
	}
	head, tail := s[:maxOutput/2], s[len(s)-maxOutput/2:]
	return toValid(head) + "\n…\n" + toValid(tail)
}

func toValid(s string) string { return strings.ToValidUTF8(s, "") }

// plainText drops terminal escapes and control characters other than
// newlines and tabs.
func plainText(s string) string {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = reTerminal.ReplaceAllString(s, "")
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
