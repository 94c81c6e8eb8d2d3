package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// reProjectTool are commands that run the project's own machinery beyond
// its checks: a make or just target, a package script, a generator, an
// npx tool, a compose service, a nix evaluation or system rebuild.
// Installs, listings and inspections are left out: they are setup, not
// how the project is run.
var reProjectTool = lazyre.New(`^(?:\S+=\S+\s+)*(?:sudo\s+)?(?:` +
	`make\s+[\w./-]+|just\s+[\w.-]+` +
	`|(?:npm|pnpm|bun)\s+run\s+[\w:.-]+|npm\s+start|(?:pnpm|yarn)\s+(?:dev|start|serve|generate|storybook)\b|yarn\s+run\s+[\w:.-]+` +
	`|npx\s+[a-z@][\w@/.-]*` +
	`|docker(?:-compose|\s+compose)(?:\s+(?:-f|--file|-p|--project-name|--profile)\s+\S+)*\s+(?:run|up|exec)\b` +
	`|go\s+(?:run|generate)\s+\S|cargo\s+run\b` +
	`|mix\s+(?:phx\.server|ecto\.\w+|run|[\w.]*gen[\w.]*)\b` +
	`|python3?\s+(?:-m\s+[a-z][\w.]*|[\w./-]+\.py)\b|node\s+[\w./-]+\.[cm]?js\b|(?:ba)?sh\s+[\w./-]+\.sh\b|\./[\w./-]*[\w-]` +
	`|(?:uv|poetry|pipenv|pdm|hatch|rye)\s+run\s+|bundle\s+exec\s+|rails\s+(?:s|server|db:\w+|generate)\b` +
	`|nix\s+(?:run|eval|build)\b|(?:nixos|darwin)-rebuild\s+(?:switch|boot|test|build)\b|home-manager\s+(?:switch|build)\b` +
	`)`)

// reNotRun are tool commands that inspect or set up rather than run
// the project (a package manager's own subcommands, a help screen).
var reNotRun = lazyre.New(`(?i)^(?:\S+=\S+\s+)*(?:npx\s+(?:-y\s+|--yes\s+)?(?:tsc|eslint|prettier|vitest|jest|playwright\s+install|npm|yarn|pnpm|create-\S+|degit|skills?)\b|.*\s(?:install|uninstall|add|remove|ls|list|outdated|audit|info|view|init|ps|logs|down|config|pull)(?:\s|$))`)

// reTempArg is where a run wrote a throwaway result (--output-path=/tmp/x.json):
// not part of how to run it.
var reTempArg = lazyre.New(`\s+(?:--?[\w-]+[= ])?(?:/tmp|/var/folders|\$TMPDIR)/\S*`)

// projectCommand is a command line's one project command as a reader
// would run it again, or "" when it holds none (or holds a check: runs
// has those).
func projectCommand(cmd string) (clean, dir string) {
	if cmd == "" || strings.Contains(cmd, "\n") || reNoise.MatchString(cmd) {
		return "", ""
	}
	var real []string
	for _, seg := range splitSegments(cmd) {
		seg = strings.TrimSpace(seg)
		if m := reCd.FindStringSubmatch(seg); m != nil {
			dir = within(dir, strings.Trim(m[1], `"'`))
			continue
		}
		if reSetup.MatchString(seg) {
			continue
		}
		real = append(real, seg)
	}
	// The tool is known by the command's head: the rest is cleaned only
	// for the few lines that are one.
	if len(real) != 1 || !reProjectTool.MatchString(real[0]) {
		return "", ""
	}
	seg := strings.TrimSpace(reShellTail.ReplaceAllString(real[0], ""))
	seg = strings.TrimSpace(reRedirect.ReplaceAllString(seg, ""))
	seg = strings.TrimSpace(reTempArg.ReplaceAllString(seg, ""))
	if len(seg) > 160 || strings.Contains(seg, " -c ") || strings.Contains(seg, " -e ") ||
		!reProjectTool.MatchString(seg) || reNotRun.MatchString(seg) {
		return "", ""
	}
	if _, _, _, ok := verifyCommand(cmd); ok {
		return "", "" // a check: runs has it
	}
	return seg, dir
}

// howTo is a project command the session showed working, and why we
// believe it.
type howTo struct {
	cmd, dir, why string
	call          *transcript.Call
}

func (h howTo) line() string {
	line := fmt.Sprintf("- run: `%s`", h.cmd)
	if h.dir != "" && h.dir != "." {
		line += fmt.Sprintf(" (in `%s`)", h.dir)
	}
	if h.why != "" {
		line += " " + h.why
	}
	return line
}

// projectRuns lists the project commands the agent ran that worked more
// than once, or that the person asked for by name and that worked: the
// way this project's results are produced (a lighthouse audit, a visual
// regression run, a dev server). A command run once is no evidence it is
// the way: silence.
func projectRuns(s *transcript.Session) []howTo {
	asked := map[string]bool{}
	for _, t := range s.Said() {
		if cmd, _ := projectCommand(strings.Trim(strings.TrimSpace(t.Text), "`")); cmd != "" {
			asked[cmd] = true
		}
	}
	dirs := shellDirs(s)
	var removed map[string]int // read when a script is run
	by := map[string]*seen{}
	var order []string
	for i, c := range s.Calls() {
		cmd, dir := projectCommand(c.Command)
		if cmd == "" || (c.Status != transcript.OK && c.Status != transcript.Failed) {
			continue
		}
		if dir = rel(s, within(dirs[c], dir)); dir == "." {
			dir = ""
		}
		if dir == "" && s.Cwd != "" { // the project's own paths, as a reader types them
			cmd = strings.ReplaceAll(strings.ReplaceAll(cmd, s.Cwd+"/", ""), s.Cwd+`\`, "")
		}
		// A script the session threw away afterwards was a probe.
		if m := reScript.FindStringSubmatch(cmd); m != nil {
			if removed == nil {
				removed = removedFiles(s)
			}
			if gone(rel(s, within(dir, m[1])), i, removed) {
				continue
			}
		}
		key := dir + "\x00" + cmd
		r := by[key]
		if r == nil {
			r = &seen{h: howTo{cmd: cmd, dir: dir}}
			by[key] = r
			order = append(order, key)
		}
		r.last = c.Status
		if c.Status == transcript.OK {
			r.passed++
			r.h.call = c
		}
	}
	var kept []*seen
	for _, k := range order {
		if r := by[k]; r.last == transcript.OK && (r.passed >= 2 || asked[r.h.cmd]) {
			kept = append(kept, r)
		}
	}
	// A short list a reader takes in: the ones the person asked for and
	// the most used, in the order the session first ran them.
	if len(kept) > maxProjectRuns {
		rank := slices.Clone(kept)
		slices.SortStableFunc(rank, func(a, b *seen) int { return weight(b, asked) - weight(a, asked) })
		rank = rank[:maxProjectRuns]
		kept = slices.DeleteFunc(kept, func(r *seen) bool { return !slices.Contains(rank, r) })
	}
	out := make([]howTo, 0, len(kept))
	for _, r := range kept {
		out = append(out, r.h)
	}
	return out
}

// maxProjectRuns bounds the project commands one session adds.
const maxProjectRuns = 4

// seen is a project command's record in a session.
type seen struct {
	h      howTo
	passed int
	last   transcript.Status
}

func weight(r *seen, asked map[string]bool) int {
	if asked[r.h.cmd] {
		return 1 << 20
	}
	return r.passed
}

// reScript is the script a command runs.
var reScript = lazyre.New(`(?:^|\s)((?:\./)?[\w./-]+\.(?:py|sh|[cm]?js|ts|rb))\b`)

// reDone is a person saying, in a word or two, that they did what they
// were asked.
var reDone = lazyre.New(`(?i)^(?:ok(?:ay)?[,.!]?\s*|yes[,.!]?\s*)?(?:done|did it|ran it|it ran|it worked|that worked|worked|works now|all good|success(?:ful)?)[.!]*$`)

// reCodeSpan is a command the agent showed: in backticks or a line of a
// fenced block.
var reCodeSpan = lazyre.New("`([^`\\n]+)`|(?m)^```[\\w-]*\\n((?:[^`\\n][^\\n]*\\n)+?)```")

// givenAndDone lists project commands the agent gave the person to run
// and the person reported done: `Ready for \`make buf-gen\`.` then "done".
func givenAndDone(s *transcript.Session) []howTo {
	var out []howTo
	var last string // the agent's last words before the person spoke
	for _, t := range s.Turns {
		switch {
		case t.IsAgent():
			last = t.Text
		case t.IsPerson():
			if t.Form != transcript.Pasted && len(t.Text) <= 40 && reDone.MatchString(strings.TrimSpace(t.Text)) {
				if cmd := onlyCommand(last); cmd != "" {
					out = append(out, howTo{cmd: cmd, why: "(the person ran it when the agent asked)"})
				}
			}
			last = ""
		}
	}
	return out
}

// onlyCommand is the one project command or check an agent's message shows, or ""
// when it shows none or several (which of them was done is unknown).
func onlyCommand(text string) string {
	var found []string
	for _, m := range reCodeSpan.FindAllStringSubmatch(text, -1) {
		lines := []string{m[1]}
		if m[2] != "" {
			lines = strings.Split(strings.TrimSpace(m[2]), "\n")
		}
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "#") {
				continue
			}
			// A check the person ran and called done passed.
			if _, check, dir, ok := verifyCommand(l); ok && dir == "" {
				found = append(found, check)
			} else if cmd, _ := projectCommand(l); cmd != "" {
				found = append(found, cmd)
			}
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}
