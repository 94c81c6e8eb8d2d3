package extract

import (
	"path"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// What a session changed: the files it wrote and left, in the project
// and in the person's home, not the ones it removed or undid.

// filesChanged lists the project files the session wrote and left in
// place, most edited first; files outside the project (scratch files,
// other repositories) are not the project's.
func filesChanged(s *transcript.Session) []string {
	count := map[string]int{}
	lastWrite := map[string]int{}
	var order []string
	for i, c := range s.Calls() {
		for _, f := range c.Files {
			r := rel(s, f)
			if isAbs(r) || strings.HasPrefix(r, "..") || r == "" {
				continue
			}
			if count[r] == 0 {
				order = append(order, r)
			}
			count[r]++
			lastWrite[r] = i
		}
	}
	removed, back := removedFiles(s), reverted(s)
	order = slices.DeleteFunc(order, func(f string) bool {
		at, ok := back[f]
		return gone(f, lastWrite[f], removed) || ok && at >= lastWrite[f]
	})
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	return order
}

var (
	reHome = lazyre.New(`^(/home/[^/]+|/Users/[^/]+|/root)/`)
	// reAgentOwn are the agents' own and scratch places: an agent writing
	// its memory file or a cache is not the person's change.
	reAgentOwn = lazyre.New(`^~/(?:\.claude|\.codex|\.cache|\.npm|\.local/share/Trash|\.cairn|Library/Caches)/`)
)

// filesElsewhere are files the session wrote in the person's home outside
// the project (~/.config/waybar/config.jsonc when tuning a desktop), as
// ~/ paths, most edited first: where the work of such a session lives.
func filesElsewhere(s *transcript.Session) []string {
	m := reHome.FindStringSubmatch(s.Cwd + "/")
	if m == nil {
		return nil
	}
	home := m[1] + "/"
	back := reverted(s)
	count := map[string]int{}
	var order []string
	for _, c := range s.Calls() {
		for _, f := range c.Files {
			if !strings.HasPrefix(f, home) || !isAbs(rel(s, f)) {
				continue // inside the project, or not in the home
			}
			if _, ok := back[rel(s, f)]; ok {
				continue
			}
			t := "~/" + strings.TrimPrefix(f, home)
			if reAgentOwn.MatchString(t) {
				continue
			}
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	return order
}

// reverted are the files whose edits the session took back: the last
// edit restored what the first one replaced (the agent trying a change
// and undoing it), or git checkout/restore put the file back. Keyed by
// the path as written, with the index of the call that restored it.
func reverted(s *transcript.Session) map[string]int {
	// Per file, the text the first edit replaced and the text the last
	// one left, while each edit took up where the one before left off.
	type chain struct {
		first, last string
		broken      bool
	}
	chains := map[string]*chain{}
	out := map[string]int{}
	for i, c := range s.Calls() {
		if c.Status == transcript.OK {
			for _, seg := range splitSegments(c.Command) {
				if m := reRestore.FindStringSubmatch(strings.TrimSpace(seg)); m != nil {
					for _, f := range strings.Fields(m[1]) {
						if f != "--" && !strings.HasPrefix(f, "-") && f != "." {
							out[rel(s, f)] = i
						}
					}
				}
			}
		}
		if c.Tool != "Edit" || len(c.Files) != 1 || c.Status == transcript.Failed || c.Status == transcript.NotRun {
			continue
		}
		f := rel(s, c.Files[0])
		oldS, _ := c.Input["old_string"].(string)
		newS, _ := c.Input["new_string"].(string)
		ch := chains[f]
		switch {
		case ch == nil:
			chains[f] = &chain{first: oldS, last: newS, broken: oldS == ""}
		case oldS != ch.last:
			ch.broken = true // another part of the file: no longer one change undone
		default:
			ch.last = newS
		}
		if ch = chains[f]; !ch.broken && ch.last == ch.first {
			out[f] = i
		} else {
			delete(out, f)
		}
	}
	return out
}

var reRestore = lazyre.New(`^git (?:checkout --|restore(?: --(?:worktree|staged))*)\s+(.+)$`)

// gone reports a file removed, itself or a directory above it, after it
// was last written.
func gone(f string, written int, removed map[string]int) bool {
	for p := f; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if at, ok := removed[p]; ok && at > written {
			return true
		}
	}
	return false
}

var (
	reRm = lazyre.New(`^(?:git )?rm(?:\s+-\w+)*\s+(.+)$`)
	reMv = lazyre.New(`^(?:git )?mv(?:\s+-\w+)*\s+(.+)\s+\S+$`)
)

// removedFiles are the paths an rm or mv in the session took away, with
// the index of the call that did it: a file written and then removed is
// not a change the session left.
func removedFiles(s *transcript.Session) map[string]int {
	out := map[string]int{}
	for i, c := range s.Calls() {
		if c.Status != transcript.OK {
			continue
		}
		for _, seg := range splitSegments(c.Command) {
			seg = strings.TrimSpace(seg)
			m := reRm.FindStringSubmatch(seg)
			if m == nil {
				m = reMv.FindStringSubmatch(seg)
			}
			if m == nil || strings.Contains(seg, "--cached") {
				continue
			}
			for _, f := range strings.Fields(m[1]) {
				if !strings.HasPrefix(f, "-") {
					out[strings.TrimSuffix(rel(s, strings.Trim(f, `"'`)), "/")] = i
				}
			}
		}
	}
	return out
}
