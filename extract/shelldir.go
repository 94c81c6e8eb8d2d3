package extract

import (
	"path"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// reCwdReset is Claude Code putting its shell back in the project after
// a cd led out of it.
var reCwdReset = lazyre.New(`Shell cwd was reset to ([^\r\n]+)`)

// shellDirs says in which directory each shell call of the session
// started, as written (absolute, or relative to the session's directory;
// "" for the session's directory). Claude Code runs every Bash call in
// one shell, so a `cd` lasts into the calls after it (`cd services/api &&
// go build ./...` then `go test ./...` tests services/api); a subagent
// has a shell of its own. Codex names each call's directory (workdir)
// and keeps nothing from one call to the next.
func shellDirs(s *transcript.Session) map[*transcript.Call]string {
	out := map[*transcript.Call]string{}
	persistent := s.Agent == "claude-code"
	shell := map[bool]string{} // by sidechain
	for i := range s.Turns {
		t := &s.Turns[i]
		c := t.Call
		if c == nil || t.Prior || c.Command == "" {
			continue
		}
		if !persistent {
			if wd, ok := c.Input["workdir"].(string); ok {
				out[c] = wd
			}
			continue
		}
		start := shell[t.Sidechain]
		out[c] = start
		shell[t.Sidechain] = afterCall(start, c)
	}
	return out
}

// afterCall is where Claude Code's shell is left by a call: moved by
// its cds when the call passed; a call that failed leaves it where it
// was (Claude Code keeps the directory a passing command ended in). The
// person's own `! cd ..` prints nothing, so no status says it passed.
func afterCall(start string, c *transcript.Call) string {
	dir := start
	if !strings.Contains(c.Command, "cd ") && !strings.Contains(c.Output, "Shell cwd") {
		return dir
	}
	if c.Status == transcript.OK || c.ByPerson && c.Status != transcript.Failed {
		for _, seg := range splitSegments(c.Command) {
			if m := reCd.FindStringSubmatch(strings.TrimSpace(seg)); m != nil {
				dir = within(dir, strings.Trim(m[1], `"'`))
			}
		}
	}
	if m := reCwdReset.FindStringSubmatch(c.Output); m != nil {
		dir = strings.TrimSpace(m[1])
	}
	return dir
}

// within is dir reached from base: dir itself when absolute.
func within(base, dir string) string {
	switch {
	case dir == "" || dir == "." || dir == "-":
		return base
	case isAbs(dir) || base == "":
		return dir
	}
	return path.Join(strings.ReplaceAll(base, `\`, "/"), strings.ReplaceAll(dir, `\`, "/"))
}
