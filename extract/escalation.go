package extract

import (
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// reToolchain are the project's own tools: a command of theirs that
// needs the sandbox lifted is how to run the project here, where a git
// push needing the network is not.
var reToolchain = lazyre.New(`^(?:\S+=\S+\s+)*(?:mix|npm|npx|yarn|pnpm|bun|cargo|go|make|just|pytest|python3?|uv|poetry|pip3?|bundle|rails|gradle|\./gradlew|mvn|dotnet|docker(?:-compose)?|nix)\b`)

type escalation struct {
	cmd, why string
	call     *transcript.Call
}

// needEscalation lists the project's tool commands (other than its
// checks, which runs covers) that failed inside the agent's sandbox and
// ran when run again with escalated permissions.
func needEscalation(s *transcript.Session) []escalation {
	failed := map[string]string{}
	var out []escalation
	for _, c := range s.Calls() {
		cmd := toolCommand(c.Command)
		if cmd == "" {
			continue
		}
		switch {
		case !c.Escalated && (c.Status == transcript.Failed && sandboxFailure(c.Output) || c.Status == transcript.NotRun && c.Why == "sandbox"):
			if _, ok := failed[cmd]; !ok {
				failed[cmd] = clip(oneLine(errorMessage(c.Output)), 80)
			}
		case c.Escalated && (c.Status == transcript.OK || c.Status == transcript.Failed && !sandboxFailure(c.Output)):
			// It ran: its own exit status (mix hex.outdated exits 1 when
			// something is outdated) is not the sandbox's.
			why, ok := failed[cmd]
			if !ok || slices.ContainsFunc(out, func(e escalation) bool { return e.cmd == cmd }) {
				continue
			}
			if why == "" {
				why = "refused"
			}
			out = append(out, escalation{cmd: cmd, why: why, call: c})
		}
	}
	return out
}

// toolCommand is a command line's one tool command, as a reader would
// run it: not a check (runs has those), nothing chained after it.
func toolCommand(cmd string) string {
	if cmd == "" || strings.Contains(cmd, "\n") || reNoise.MatchString(cmd) {
		return ""
	}
	if _, _, _, ok := verifyCommand(cmd); ok {
		return ""
	}
	var real []string
	for _, seg := range splitSegments(cmd) {
		seg = strings.TrimSpace(seg)
		if reCd.MatchString(seg) || reSetup.MatchString(seg) {
			continue
		}
		real = append(real, seg)
	}
	if len(real) != 1 {
		return ""
	}
	seg := strings.TrimSpace(reRedirect.ReplaceAllString(reShellTail.ReplaceAllString(real[0], ""), ""))
	if !reToolchain.MatchString(seg) || len(seg) > 80 {
		return ""
	}
	return seg
}
