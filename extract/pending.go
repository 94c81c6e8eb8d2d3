package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// Work the session itself named as to be done and never did: items the
// agent listed as still outstanding, findings the person agreed to fix, a
// plan the person approved that no edit followed. Each must name a file
// or a code name, so that "never did" can be checked against the edits
// and the agent's later words; an item that names neither is not kept.
// The agent's own "next steps" at the end are suggestions nobody asked
// for and are not read.

// pendingItem is one piece of named work, where the session named it.
type pendingItem struct {
	line string // as the summary shows it
	at   int    // turn index where it was named
	refs []string
}

var (
	// reOutstandingHead introduces a list of work still to do.
	reOutstandingHead = lazyre.New(`(?i)\b(?:still (?:outstanding|open|to do|missing|left)|outstanding(?: items| work)?|remaining (?:work|items|tasks|gaps)|left to do|not (?:yet )?(?:done|implemented|addressed)(?: yet)?|open items|still needs? doing)\W*:\W*$`)
	// reWhatLeft is the person asking what is left.
	reWhatLeft = lazyre.New(`(?i)\b(?:anything else (?:we|i|that|to)\b|what(?:'s| is) (?:left|remaining|outstanding)|what else (?:do we|needs?|should we|is (?:left|missing))|anything (?:left|remaining|outstanding|missing)|what remains)`)
	// reStillPending is an item worded as not done.
	reStillPending = lazyre.New(`(?i)\b(?:still (?:doesn'?t|does not|don'?t|do not|isn'?t|is not|needs?|lacks?|missing|has to|to)|not (?:yet )?(?:written|added|implemented|wired|done|populated|handled|tested|covered)|nothing (?:written|added|done) yet|needs? (?:updating|to be (?:updated|added|written|fixed)))\b`)
	// reItemStart opens a list item: "1. ", "**2. ", "- ".
	reItemStart = lazyre.New(`^ ?(?:\*\*)?(?:(\d{1,2})[.)]|[-*•])\s+`)
	// reFileName is a file name with an extension, a line number allowed.
	reFileName = lazyre.New("(?:^|[\\s`(/])([\\w.-]*\\w\\.[a-z][a-z0-9]{0,4})(?::\\d+(?:-\\d+)?)?(?:$|[\\s`),:;])")
	// rePersonPick is the person answering a numbered list item by number.
	rePersonPick = lazyre.New(`(?:^|[\s,;.(])(\d{1,2})(?:[.):-]\s*|\s+)`)
	reAgree      = lazyre.New(`(?i)^\W*(?:yeah|yes|yep|ok(?:ay|l)?|sure|agreed?|fix (?:it|that|this)|we should (?:fix|test|add|do|change|handle)|let'?s (?:fix|do|add|handle|test)|please (?:fix|do|add))\b`)
	reDecline    = lazyre.New(`(?i)\b(?:i(?:'ve| have)? (?:already )?(?:fixed|done|handled)|already|no|nope|not (?:needed|necessary|an issue|a problem|now)|skip|leave|ignore|don'?t|won'?t|isn'?t|later)\b`)
)

// pendingWork lists the work the session named and never did.
func pendingWork(s *transcript.Session) []pendingItem {
	var out []pendingItem
	for _, it := range slices.Concat(outstandingItems(s), agreedItems(s), neededWork(s)) {
		if len(it.refs) == 0 || touchedAfter(s, it.at, it.refs) || takenUpAfter(s, it.at, it.refs) {
			continue
		}
		if !slices.ContainsFunc(out, func(o pendingItem) bool { return sameRefs(o.refs, it.refs) }) {
			out = append(out, it)
		}
	}
	out = append(out, plannedOnly(s)...)
	return append(out, unverifiedPlan(s)...)
}

// listItem is one item of a markdown list, continuation lines included.
type listItem struct {
	num  int
	head string // the line before the list
	text string
}

// listItems reads the lists of a reply, outside code blocks.
func listItems(text string) []listItem {
	var out []listItem
	var cur *listItem
	head, inCode := "", false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inCode, cur = !inCode, nil
			continue
		}
		if inCode {
			continue
		}
		m := reItemStart.FindStringSubmatch(line)
		switch {
		case m != nil:
			n, _ := strconv.Atoi(m[1])
			if cur == nil && len(out) > 0 && out[len(out)-1].head != "" && head == "" {
				head = out[len(out)-1].head // a list broken by blank lines
			}
			out = append(out, listItem{num: n, head: head, text: strings.TrimSpace(line[len(m[0]):])})
			cur = &out[len(out)-1]
		case t == "":
			cur = nil
		case cur != nil && !strings.HasPrefix(t, "#"):
			cur.text += "\n" + t
		default:
			cur, head = nil, t
		}
	}
	return out
}

// outstandingItems are the items of a list the agent headed as still to
// do, or gave when the person asked what was left.
func outstandingItems(s *transcript.Session) []pendingItem {
	var out []pendingItem
	asked := false
	for i, t := range s.Turns {
		switch {
		case t.IsPerson():
			asked = reWhatLeft.MatchString(t.Text)
		case t.IsAgent():
			for _, it := range listItems(t.Text) {
				if reOutstandingHead.MatchString(it.head) || asked && reStillPending.MatchString(it.text) {
					out = append(out, pendingItem{line: itemLine(it.text), at: i, refs: itemRefs(it.text)})
				}
			}
		}
	}
	return out
}

// agreedItems are findings the agent numbered that the person agreed to
// take up by number: "1 yeah we should fix, 2 leave it, 3 fix that".
func agreedItems(s *transcript.Session) []pendingItem {
	var out []pendingItem
	var list []listItem
	at := 0
	for i, t := range s.Turns {
		switch {
		case t.IsAgent():
			if items := numbered(listItems(t.Text)); len(items) >= 2 {
				list, at = items, i
			} else if strings.TrimSpace(t.Text) != "" && list != nil && i > at {
				// The person answers the agent's last words, not an
				// earlier list.
				list = nil
			}
		case t.IsPerson() && t.Form != transcript.Pasted:
			for n, reply := range picks(t.Text, len(list)) {
				if reAgree.MatchString(reply) && !reDecline.MatchString(reply) {
					it := list[n-1].text
					out = append(out, pendingItem{line: "Agreed to fix, not done: " + itemLine(it), at: i, refs: itemRefs(it)})
				}
			}
			list = nil
		}
	}
	return out
}

// numbered keeps the items of one numbered list 1..n.
func numbered(items []listItem) []listItem {
	var out []listItem
	for _, it := range items {
		if it.num == len(out)+1 {
			out = append(out, it)
		}
	}
	return out
}

// picks splits a person's reply to a numbered list into what they said
// of each item: none unless it answers two items or more by number.
func picks(text string, n int) map[int]string {
	if n == 0 || len(text) > 600 {
		return nil
	}
	locs := rePersonPick.FindAllStringSubmatchIndex(text, -1)
	out := map[int]string{}
	for j, l := range locs {
		k, _ := strconv.Atoi(text[l[2]:l[3]])
		end := len(text)
		if j+1 < len(locs) {
			end = locs[j+1][0]
		}
		if k < 1 || k > n || out[k] != "" {
			return nil // not an answer by number
		}
		out[k] = strings.TrimSpace(text[l[1]:end])
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// itemLine is an item as the summary shows it: its first line.
func itemLine(text string) string {
	first, _, _ := strings.Cut(text, "\n")
	return clip(oneLine(plain(first)), 160)
}

// itemRefs are the files and code names an item names.
func itemRefs(text string) []string {
	var refs []string
	for _, m := range reFileName.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(refs, m[1]) && !reVersionLike.MatchString(m[1]) {
			refs = append(refs, m[1])
		}
	}
	for _, m := range reIdent.FindAllStringSubmatch(text, -1) {
		id := strings.TrimRight(m[1], ".,:;")
		if i := strings.LastIndexByte(id, ':'); i > 0 && isDigits(id[i+1:]) {
			id = id[:i]
		}
		if !slices.Contains(refs, id) && !slices.ContainsFunc(refs, func(r string) bool { return strings.HasSuffix(id, "/"+r) }) {
			refs = append(refs, id)
		}
	}
	return refs
}

var reVersionLike = lazyre.New(`^v?\d+(?:\.\d+)+$|^(?:e\.g|i\.e|etc)\.?`)

func isFileName(s string) bool { return reFileName.MatchString(s) }

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789-") == ""
}

func sameRefs(a, b []string) bool {
	return len(a) > 0 && len(b) > 0 && a[0] == b[0]
}

// reWriteCmd is a shell command that can write the files it names.
var reWriteCmd = lazyre.New(`(?:\bsed\s+-i|>|\btee\b|\bmv\b|\bcp\b|\brm\b|\bpython3?\b|\bperl\b|\bpatch\b|\bgit (?:checkout|restore|apply)\b|\bgofmt -w|\bprettier\b.*--write)`)

// touchedAfter reports a call after turn i that wrote a file the item
// names, or, when it names none, an edit that holds a code name it names
// (a field name alone is too common to say more when a file is named).
func touchedAfter(s *transcript.Session, i int, refs []string) bool {
	byFile := slices.ContainsFunc(refs, isFileName)
	for _, t := range s.Turns[i+1:] {
		c := t.Call
		if c == nil || t.Prior || c.Status == transcript.NotRun {
			continue
		}
		for _, f := range c.Files {
			if slices.Contains(refs, lastSegment(f)) || slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, "/") && strings.HasSuffix(f, r) }) {
				return true
			}
		}
		if c.Command != "" && reWriteCmd.MatchString(c.Command) && mentionsRef(c.Command, refs) {
			return true
		}
		if !byFile && len(c.Files) > 0 && mentionsRef(inputText(c), refs) {
			return true
		}
	}
	return false
}

// takenUpAfter reports the agent coming back to the item after turn i in
// words that do not call it still to do: it was done, or settled.
func takenUpAfter(s *transcript.Session, i int, refs []string) bool {
	for _, t := range s.Turns[i+1:] {
		if !t.IsAgent() || !mentionsRef(t.Text, refs) {
			continue
		}
		for _, sent := range sentences(t.Text) {
			if mentionsRef(sent, refs) && !reStillPending.MatchString(sent) && !reOutstandingHead.MatchString(sent) {
				return true
			}
		}
	}
	return false
}

// mentionsRef reports text naming one of refs as a whole word.
func mentionsRef(text string, refs []string) bool {
	for _, r := range refs {
		for j := 0; ; {
			k := strings.Index(text[j:], r)
			if k < 0 {
				break
			}
			k += j
			if (k == 0 || !isWordByte(text[k-1])) && (k+len(r) == len(text) || !isWordByte(text[k+len(r)])) {
				return true
			}
			j = k + 1
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// inputText is what an edit wrote: the string values of its input, the
// text it replaced left out.
func inputText(c *transcript.Call) string {
	var b strings.Builder
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case string:
			if key != "old_string" && key != "old_str" {
				b.WriteString(x)
				b.WriteByte('\n')
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		}
	}
	walk(c.Input, "")
	return b.String()
}

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
		out = append(out, pendingItem{line: "Approved plan not carried out: " + strings.Join(parts, "; "), at: i, refs: refs})
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

// reNeedsWork is the agent naming a change a code name still needs.
var reNeedsWork = lazyre.New(`(?i)\b(?:needs? to (?:be )?(?:populate|fill|set|add|update|call|handle|return|pass|include|wire|check|regenerat|implement|register|export|change|move|remove|use)\w*|needs? (?:regenerating|updating|fixing|adding|wiring|populating)|still (?:doesn'?t|does not|isn'?t|is not|lacks|needs?))\b`)

var reNowLead = lazyre.New(`(?i)^(?:now|next|then|also|so),?\s+`)

// reNotMine is work the agent says someone else does, or may not be
// needed.
var reNotMine = lazyre.New(`(?i)\b(?:you(?:'ll)? (?:need|have|want|should|must|can)|your|the user|if\b|whether|might|may|could|would|should we|unless|once|when)\b`)

// neededWork are sentences of the agent's naming a change a file needs:
// "`contractToProto` in `controller.go` needs to populate `ExpiresAt`".
func neededWork(s *transcript.Session) []pendingItem {
	var out []pendingItem
	for i, t := range s.Turns {
		if !t.IsAgent() || !reNeedsWork.MatchString(t.Text) {
			continue
		}
		for _, sent := range sentences(t.Text) {
			if strings.HasSuffix(sent, "?") || !reNeedsWork.MatchString(sent) || reNotMine.MatchString(sent) || len(sent) > 220 {
				continue
			}
			// Only a named file makes "never done" sure enough: code names
			// change with the work, and what the person runs (a code
			// generator, say) leaves no edit behind.
			for _, clause := range strings.Split(sent, ", and ") {
				if refs := itemRefs(clause); reNeedsWork.MatchString(clause) && slices.ContainsFunc(refs, isFileName) {
					line := reNowLead.ReplaceAllString(strings.TrimSpace(clause), "")
					out = append(out, pendingItem{line: clip(oneLine(strings.ToUpper(line[:1])+line[1:]), 160), at: i, refs: refs})
				}
			}
		}
	}
	return out
}
