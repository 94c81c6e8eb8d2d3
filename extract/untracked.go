package extract

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Files a session took out of git on purpose: it removed them from the
// index but kept them on disk (git rm --cached) and added .gitignore lines
// that cover them. That is a decision about the repository the next
// session should not undo by adding them back, and the .gitignore lines
// alone do not say that tracked files were dropped.

// reRmCached is one `git rm --cached` segment of a command line.
var reRmCached = lazyre.New(`(?:^|[;&|]\s*)git\s+rm\s+([^;&|]*--cached[^;&|]*)`)

// extractUntracked finds files untracked and ignored on purpose.
func extractUntracked(s *transcript.Session) []Candidate {
	var removed []string
	var ignored []string // added .gitignore lines, comments kept
	var turns, tools []string
	for _, t := range s.Turns {
		c := t.Call
		if c == nil || t.Prior || c.Status != transcript.OK {
			continue
		}
		if paths := rmCachedPaths(c.Command); len(paths) > 0 {
			for _, p := range paths {
				if !slices.Contains(removed, p) { // a command run again after a denial
					removed = append(removed, p)
				}
			}
			turns, tools = append(turns, t.Ref), append(tools, c.ID)
		}
		if lines := gitignoreAdds(c); len(lines) > 0 {
			ignored = append(ignored, lines...)
			turns, tools = append(turns, t.Ref), append(tools, c.ID)
		}
	}
	patterns := ignorePatterns(ignored)
	covered := slices.DeleteFunc(slices.Clone(removed), func(p string) bool { return !ignoredBy(p, patterns) })
	if len(covered) == 0 {
		return nil
	}
	last := s.Turns[len(s.Turns)-1].Time
	for _, t := range s.Turns {
		if slices.Contains(turns, t.Ref) {
			last = t.Time
		}
	}
	return []Candidate{{Kind: schema.KindDecision, Scope: schema.ScopeProject,
		Title: titleFrom("Kept out of git: " + strings.Join(patterns, ", ")),
		Body: fmt.Sprintf("Added to .gitignore:\n\n    %s\n\nRemoved from the index, kept on disk (git rm --cached): %s.",
			strings.Join(ignored, "\n    "), listSome(covered, 8)),
		Tags: []string{"decision", "gitignore"}, Turns: turns, Tools: tools,
		Rule: "files untracked on purpose: git rm --cached, and .gitignore lines cover them", Confidence: 0.75, Time: last}}
}

// rmCachedPaths are the paths of a command's `git rm --cached`.
func rmCachedPaths(cmd string) []string {
	var out []string
	for _, m := range reRmCached.FindAllStringSubmatch(cmd, -1) {
		for _, f := range strings.Fields(m[1]) {
			f = strings.Trim(f, `"'`)
			if f == "" || strings.HasPrefix(f, "-") || strings.ContainsAny(f, "<>$`") {
				continue
			}
			out = append(out, strings.TrimPrefix(f, "./"))
		}
	}
	return out
}

// gitignoreAdds are the lines a call added to a .gitignore, when that is
// the only file it wrote: a patch's added lines, an edit's new lines.
func gitignoreAdds(c *transcript.Call) []string {
	if len(c.Files) != 1 || path.Base(strings.ReplaceAll(c.Files[0], `\`, "/")) != ".gitignore" {
		return nil
	}
	old := map[string]bool{}
	for _, p := range editPairs(c) {
		for l := range strings.SplitSeq(p[0], "\n") {
			old[strings.TrimSpace(l)] = true
		}
	}
	var out []string
	for l := range strings.SplitSeq(writtenText(c), "\n") {
		if l = strings.TrimSpace(l); l != "" && !old[l] && !strings.HasPrefix(l, "*** ") {
			out = append(out, l)
		}
	}
	return out
}

// ignorePatterns are the .gitignore lines that ignore something: not
// comments, not negations.
func ignorePatterns(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "!") && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// ignoredBy reports a path one of the patterns covers, the way git reads
// them: a pattern with a slash is anchored at the root, one without
// matches a name at any depth, and a directory covers what is under it.
func ignoredBy(p string, patterns []string) bool {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	for _, pat := range patterns {
		pat = strings.TrimSuffix(pat, "/")
		anchored := strings.Contains(strings.TrimPrefix(pat, "/"), "/")
		pat = strings.TrimPrefix(pat, "/")
		for i := range parts {
			if anchored {
				if ok, _ := path.Match(pat, strings.Join(parts[:i+1], "/")); ok {
					return true
				}
			} else if ok, _ := path.Match(pat, parts[i]); ok {
				return true
			}
		}
	}
	return false
}

// listSome lists up to n items and says how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
