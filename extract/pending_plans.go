package extract

import (
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// Plans the person approved that the session did not carry out, or did
// not check as they asked.

var (
	// reFilesHead opens a plan's list of the files it will write.
	reFilesHead = lazyre.New(`(?i)^\W*(?:#{1,4}\s*)?(?:\*\*)?(?:new )?files? to (create|add|modify|change|update|edit)\b[^\n]*$`)
	reMaybeHead = lazyre.New(`(?i)\b(?:if needed|optional(?:ly)?|maybe|possibly|might)\b`)
	// reVerifyHead opens a plan's section of checks.
	reVerifyHead = lazyre.New(`(?i)^\s*(?:#{1,4}\s*|\*\*)(?:manual )?(?:verification|testing|test plan|how to (?:verify|test))\b`)
	// reManualCheck is a check a person makes by hand, in a browser or UI.
	reManualCheck = lazyre.New(`(?i)\b(?:open (?:any|the|a|each)|visit|navigate to|click|in (?:a|the) browser|localhost|viewport|manually|by hand|visually|devtools)\b`)
	reHeadingLine = lazyre.New(`^\s*(?:#{1,6}\s|\*\*[^*|]+\*\*:?\s*$)`)
)

// plannedOnly is a plan the person approved, naming the files it would
// create or change, after which nothing was written: the session planned
// the work and did not do it.
func plannedOnly(s *transcript.Session) []pendingItem {
	var out []pendingItem
	for i, t := range s.Turns {
		if !t.IsPlan() && !t.IsAgent() || !approvedAt(s, i) {
			continue
		}
		sections := plannedFiles(t.Text)
		if len(sections) == 0 || wroteAfter(s, i, sections) {
			continue
		}
		var parts, refs []string
		for _, sec := range sections {
			var names []string
			for _, f := range sec.files {
				names = append(names, lastSegment(f))
			}
			parts = append(parts, sec.verb+" "+strings.Join(names, ", "))
			refs = append(refs, sec.files...)
		}
		out = append(out, pendingItem{line: "Planned, not built yet: " + strings.Join(parts, "; "), at: i, refs: refs})
	}
	return out
}

// approvedAt reports the person approving the plan at turn i: plan
// mode's approval, or a yes as the person's next words.
func approvedAt(s *transcript.Session, i int) bool {
	if s.Turns[i].IsPlan() {
		return s.Turns[i].Approved
	}
	for _, t := range s.Turns[i+1:] {
		if t.IsAgent() {
			return false
		}
		if t.IsPerson() {
			return reYes.MatchString(t.Text) && len(t.Text) < 200
		}
	}
	return false
}

type fileSection struct {
	verb  string
	files []string
}

// plannedFiles reads a plan's "Files to create" and "Files to modify"
// sections.
func plannedFiles(text string) []fileSection {
	var out []fileSection
	var cur *fileSection
	for _, line := range strings.Split(text, "\n") {
		if m := reFilesHead.FindStringSubmatch(line); m != nil && !reMaybeHead.MatchString(line) {
			out = append(out, fileSection{verb: strings.ToLower(m[1])})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			continue
		}
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "|") && !reItemStart.MatchString(line) {
			cur = nil // the section is a table or a list
			continue
		}
		// A row's first file is the one written; others are its sources.
		for _, m := range reIdent.FindAllStringSubmatch(line, -1) {
			if f := m[1]; reFileName.MatchString(f) {
				if !slices.Contains(cur.files, f) {
					cur.files = append(cur.files, f)
				}
				break
			}
		}
	}
	return slices.DeleteFunc(out, func(f fileSection) bool { return len(f.files) == 0 })
}

// wroteAfter reports any write in the project after turn i, or a shell
// command writing one of the planned files.
func wroteAfter(s *transcript.Session, i int, sections []fileSection) bool {
	var names []string
	for _, sec := range sections {
		for _, f := range sec.files {
			names = append(names, lastSegment(f))
		}
	}
	for _, t := range s.Turns[i+1:] {
		c := t.Call
		if c == nil || t.Prior || c.Status == transcript.NotRun {
			continue
		}
		for _, f := range c.Files {
			if !strings.Contains(strings.ReplaceAll(f, `\`, "/"), "/.claude/") {
				return true
			}
		}
		if c.Command != "" && reWriteCmd.MatchString(c.Command) && mentionsRef(c.Command, names) {
			return true
		}
	}
	return false
}

// unverifiedPlan is an approved plan, carried out, whose checks by hand
// (open the page, click, look) nobody reported on: the session ended on
// the agent's report after the last edit.
func unverifiedPlan(s *transcript.Session) []pendingItem {
	var out []pendingItem
	for i, t := range s.Turns {
		if !t.IsPlan() && !t.IsAgent() || !approvedAt(s, i) {
			continue
		}
		checks := manualChecks(t.Text)
		last := lastWrite(s, i)
		if len(checks) == 0 || last < 0 || spokeOrBrowsedAfter(s, last) {
			continue
		}
		out = append(out, pendingItem{line: "Not verified by hand as the approved plan asks: " + strings.Join(checks, "; "), at: i})
	}
	return out
}

// manualChecks is the expected result of a plan's verification section
// when its steps are made by hand: the first thing to confirm, or else
// the first step.
func manualChecks(text string) []string {
	var steps, expect []string
	in, byHand := false, false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case reVerifyHead.MatchString(line):
			in = true
		case reHeadingLine.MatchString(line):
			in = false
		case in && reItemStart.MatchString(line):
			step := oneLine(reParens.ReplaceAllString(plain(reItemStart.ReplaceAllString(line, "")), ""))
			byHand = byHand || reManualCheck.MatchString(step)
			steps = append(steps, step)
			if reExpect.MatchString(step) {
				expect = append(expect, step)
			}
		}
	}
	if !byHand {
		return nil
	}
	if len(expect) > 0 {
		steps = expect
	}
	return steps[:1]
}

var reParens = lazyre.New(`\s*\([^()]*\)`)

var reExpect = lazyre.New(`(?i)^(?:also )?(?:confirm|verify|check|ensure|make sure)\b`)

// lastWrite is the index of the last call after turn i that wrote a
// file, -1 when none did.
func lastWrite(s *transcript.Session, i int) int {
	last := -1
	for j := i + 1; j < len(s.Turns); j++ {
		if c := s.Turns[j].Call; c != nil && !s.Turns[j].Prior && c.Status != transcript.NotRun && len(c.Files) > 0 {
			last = j
		}
	}
	return last
}

// reBrowserTool names a tool that looks at a page.
var reBrowserTool = lazyre.New(`(?i)browser|playwright|puppeteer|chrome|screenshot|navigate`)

// spokeOrBrowsedAfter reports the person speaking after turn i, or the
// agent looking at a page: the checks may have been made.
func spokeOrBrowsedAfter(s *transcript.Session, i int) bool {
	for _, t := range s.Turns[i+1:] {
		if t.IsPerson() || t.Call != nil && reBrowserTool.MatchString(t.Call.Tool) {
			return true
		}
	}
	return false
}
