package extract

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A program missing where the person ran it (often CI: "mkdocs: command
// not found") that the agent then adds to a dependency file is a gotcha
// about the project's setup: the file the job installs from did not list
// it. The person's report and the added line are the evidence; the
// agent's own "command not found" (exit 127 in its sandbox) is not.

// reToolNotFound is a shell saying a program does not exist.
var reToolNotFound = lazyre.New(`(?m)(?:^|[\s:])([A-Za-z][\w.+-]{1,40}): (?:command )?not found\s*$`)

// missingTools finds programs the person reported missing that the agent
// then added to a dependency file.
func missingTools(s *transcript.Session) []Candidate {
	var out []Candidate
	for i, t := range s.Turns {
		if !t.IsPerson() || !troubled(t) {
			continue
		}
		for _, m := range reToolNotFound.FindAllStringSubmatch(t.Text, 3) {
			if c, ok := addedTool(s, i, m[1], strings.TrimSpace(m[0])); ok {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// addedTool follows the person's report up to their next request for an
// edit of a dependency file that adds the missing program.
func addedTool(s *transcript.Session, at int, tool, line string) (Candidate, bool) {
	// The program as a requirement of its own: "mkdocs>=1.5", not
	// "mkdocs-material".
	listed := regexp.MustCompile(`(?im)^\+?\s*["']?` + regexp.QuoteMeta(tool) + `(?:["']?\s*[:=<>~!;,\[]|["']?\s*$)`)
	for _, t := range s.Turns[at+1:] {
		if t.Prior || t.Sidechain {
			continue
		}
		if t.IsPerson() && substantive(t.Text) && !confirms(t.Text) {
			return Candidate{}, false
		}
		c := t.Call
		if c == nil || c.Status != transcript.OK {
			continue
		}
		for _, f := range c.Files {
			if reManifest.MatchString(path.Base(f)) && listed.MatchString(addedLines(c)) {
				return missingCase(s, s.Turns[at], t, tool, line, rel(s, f)), true
			}
		}
	}
	return Candidate{}, false
}

// addedLines is the text an edit put in: a patch's added lines, an Edit's
// new string, a Write's content.
func addedLines(c *transcript.Call) string {
	patch := c.Command
	if in, ok := c.Input["input"].(string); ok && patch == "" {
		patch = in
	}
	if patch != "" {
		var b strings.Builder
		for l := range strings.SplitSeq(patch, "\n") {
			if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
				b.WriteString(l + "\n")
			}
		}
		return b.String()
	}
	var b strings.Builder
	for _, p := range editPairs(c) {
		b.WriteString(p[1] + "\n")
	}
	if content, ok := c.Input["content"].(string); ok {
		b.WriteString(content)
	}
	return b.String()
}

// missingCase is the case a missing program leaves: what the person saw
// and the file that now lists it.
func missingCase(s *transcript.Session, said, fix transcript.Turn, tool, line, file string) Candidate {
	line = clip(strings.TrimSpace(line[strings.LastIndex(line, tool):]), 120)
	var b strings.Builder
	fmt.Fprintf(&b, "Symptom (as the person reported it): %s\n\nCause: `%s` was not listed in %s, so it was never installed.\n\nFix: added `%s` to %s.\n", line, tool, file, tool, file)
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject,
		Title:   titleFrom(fmt.Sprintf("\"%s\": %s was missing from %s", line, tool, file)),
		Body:    strings.TrimSpace(b.String()),
		Summary: clip(fmt.Sprintf("%q: %s was not listed in %s; the agent added it there.", line, tool, file), 240),
		Tags:    []string{"gotcha"}, Turns: []string{said.Ref, fix.Ref}, Tools: []string{fix.Call.ID},
		Rule:       "missing program: reported not found, added to a dependency file",
		Confidence: 0.75, Time: fix.Time}
}
