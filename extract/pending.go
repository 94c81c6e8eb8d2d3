package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// Work the session itself named as to be done and never did: items the
// agent listed as still outstanding, findings the person agreed to fix by
// number, a change the agent said a file needs; and (pending_plans.go)
// plans the person approved that were not carried out or checked. Each
// item must name a file or a code name, so that "never did" can be
// checked against the edits and the agent's later words
// (pending_done.go); an item that names neither is not kept. The agent's
// own "next steps" at the end are suggestions nobody asked for and are
// not read.

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
	return slices.Concat(out, plannedOnly(s), unverifiedPlan(s), cutOff(s), taskLists(s))
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

var (
	// reIntent is the agent naming its own next step.
	reIntent = lazyre.New(`(?i)\b(?:i|we) (?:also |still |now |then )?(?:need|have) to\b`)
	// reStepTail is where a stated step runs into the agent's narration.
	reStepTail = lazyre.New(`(?i)\s*(?:—|–|-|;|:|,)\s*(?:let me|i'?ll|first|then)\b.*$`)
)

// cutOff is the step the agent said it needed to take when the session
// ended under it: its last words before a tool call that nothing
// followed, with no write after them of what the step names.
func cutOff(s *transcript.Session) []pendingItem {
	last := -1
	for i := len(s.Turns) - 1; i >= 0 && last < 0; i-- {
		t := s.Turns[i]
		switch {
		case t.Prior || t.Sidechain || t.Speaker == transcript.Injected:
		case t.Call == nil || t.Call.ByPerson || t.Call.Status == transcript.NotRun && t.Call.Why == "rejected":
			return nil // the agent had the last word, or the person stopped it
		default:
			last = i
		}
	}
	for i := last - 1; i >= 0; i-- {
		t := s.Turns[i]
		if t.IsPerson() {
			return nil
		}
		if !t.IsAgent() {
			continue
		}
		for _, sent := range sentences(t.Text) {
			if !reIntent.MatchString(sent) || reNotMine.MatchString(sent) {
				continue
			}
			step := reStepTail.ReplaceAllString(sent, "")
			refs := itemRefs(step)
			if len(refs) == 0 || touchedAfter(s, i, refs) {
				return nil
			}
			return []pendingItem{{line: "Cut off mid-work, before: " + clip(oneLine(step), 140), at: i, refs: refs}}
		}
		return nil
	}
	return nil
}
