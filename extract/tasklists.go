package extract

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Task lists a session wrote whole (a spec kit's tasks.md, a TODO.md):
// how many of their boxes are open is the work the next session finds
// waiting, and a rewrite that turned checked boxes back into open ones is
// finished work the list no longer shows. Only files whose whole text the
// transcript holds are read: a Write, a patch that adds the file, a
// heredoc; an edit of part of a file says nothing about the rest.

var (
	reOpenBox = lazyre.New(`(?m)^\s*[-*] \[ \] \S`)
	reDoneBox = lazyre.New(`(?m)^\s*[-*] \[[xX]\] \S`)
	// reHeredocWrite is a shell heredoc written to a file: cat <<'EOF' > f.
	reHeredocWrite = lazyre.New(`(?s)^\s*cat\s+<<-?\s*['"]?(\w+)['"]?\s*>\s*(\S+)\s*\n(.*?)\n\s*(\w+)\s*$`)
	// reShowFile is a command that prints a file: cat f, sed -n '1,80p' f, nl -ba f.
	reShowFile = lazyre.New(`^(?:cat|nl(?: -\w+)*|head(?: -n ?\d+)?|sed -n '[^']*')\s+(\S+)$`)
)

// minTasks is how many boxes make a file a task list, not a note with a
// checkbox in it.
const minTasks = 5

// wholeWrite is a file's text as one call wrote it.
type wholeWrite struct {
	path, text string
	at         int // call index
}

// taskList is a task list as the session last wrote it whole.
type taskList struct {
	path        string
	open, done  int
	before      int // checked boxes the session saw in the list before it was rewritten
	at          int // turn index of the write
	overwritten bool
}

// writtenTaskLists are the task lists the session wrote whole and left
// with open boxes.
func writtenTaskLists(s *transcript.Session) []taskList {
	calls := s.Calls()
	last := map[string]wholeWrite{}
	var order []string
	for i, c := range calls {
		if c.Status != transcript.OK {
			continue
		}
		for _, w := range wholeWrites(c) {
			w.path, w.at = rel(s, w.path), i
			if _, ok := last[w.path]; !ok {
				order = append(order, w.path)
			}
			last[w.path] = w
		}
	}
	var out []taskList
	for _, f := range order {
		w := last[f]
		open, done := len(reOpenBox.FindAllStringIndex(w.text, -1)), len(reDoneBox.FindAllStringIndex(w.text, -1))
		if open+done < minTasks || open == 0 || isAbs(f) || strings.HasPrefix(f, "..") || writtenAfter(s, calls, f, w.at) {
			continue
		}
		l := taskList{path: f, open: open, done: done, at: turnOfCall(s, w.at)}
		if done == 0 {
			l.before = doneBefore(s, calls, f, w.at)
			l.overwritten = l.before >= 3
		}
		out = append(out, l)
	}
	return out
}

// taskLists are the summary's lines for the task lists the session left
// open: the work the next session finds waiting.
func taskLists(s *transcript.Session) []pendingItem {
	var out []pendingItem
	for _, l := range writtenTaskLists(s) {
		if l.overwritten {
			continue // a thread of its own, which the summary lists as left open
		}
		line := fmt.Sprintf("%s lists %d tasks, none done yet", l.path, l.open)
		if l.done > 0 {
			line = fmt.Sprintf("%s has %d of %d tasks still open", l.path, l.open, l.open+l.done)
		}
		out = append(out, pendingItem{line: line, at: l.at, refs: []string{l.path}})
	}
	return out
}

// wholeWrites are the files a call wrote whole, with their text.
func wholeWrites(c *transcript.Call) []wholeWrite {
	switch c.Tool {
	case "Write":
		text, _ := c.Input["content"].(string)
		if len(c.Files) == 1 && text != "" {
			return []wholeWrite{{path: c.Files[0], text: text}}
		}
	case "ApplyPatch":
		patch, _ := c.Input["input"].(string)
		if patch == "" {
			patch = c.Command
		}
		return addedFiles(patch)
	case "Bash":
		if m := reHeredocWrite.FindStringSubmatch(c.Command); m != nil && m[1] == m[4] {
			return []wholeWrite{{path: m[2], text: m[3]}}
		}
	}
	return nil
}

var reAddFile = regexp.MustCompile(`(?m)^\*\*\* Add File: (.+)$`)

// addedFiles are the files a patch adds, with their text: the "+" lines
// up to the next file header.
func addedFiles(patch string) []wholeWrite {
	var out []wholeWrite
	locs := reAddFile.FindAllStringSubmatchIndex(patch, -1)
	for _, m := range locs {
		body := patch[m[1]:]
		if end := strings.Index(body, "\n*** "); end >= 0 {
			body = body[:end]
		}
		var b strings.Builder
		for _, l := range strings.Split(body, "\n") {
			if t, ok := strings.CutPrefix(l, "+"); ok {
				b.WriteString(t)
				b.WriteByte('\n')
			}
		}
		out = append(out, wholeWrite{path: strings.TrimSpace(patch[m[2]:m[3]]), text: b.String()})
	}
	return out
}

// writtenAfter reports any later write to f, whole or in part: the boxes
// may have been checked since.
func writtenAfter(s *transcript.Session, calls []*transcript.Call, f string, at int) bool {
	for _, c := range calls[at+1:] {
		if c.Status == transcript.OK || c.Status == transcript.Unknown {
			for _, g := range c.Files {
				if rel(s, g) == f {
					return true
				}
			}
		}
	}
	return false
}

// doneBefore counts the checked boxes the session saw in f before call
// at: the last time it printed the file or wrote it whole.
func doneBefore(s *transcript.Session, calls []*transcript.Call, f string, at int) int {
	for i := at - 1; i >= 0; i-- {
		c := calls[i]
		if c.Status != transcript.OK {
			continue
		}
		for _, w := range wholeWrites(c) {
			if rel(s, w.path) == f {
				return len(reDoneBox.FindAllStringIndex(w.text, -1))
			}
		}
		if shown(s, c) == f {
			return len(reDoneBox.FindAllStringIndex(c.Output, -1))
		}
	}
	return 0
}

// shown is the file a read call printed, relative to the project.
func shown(s *transcript.Session, c *transcript.Call) string {
	if c.Tool == "Read" {
		p, _ := c.Input["file_path"].(string)
		return rel(s, p)
	}
	if c.Tool == "Bash" {
		if m := reShowFile.FindStringSubmatch(strings.TrimSpace(c.Command)); m != nil {
			return rel(s, m[1])
		}
	}
	return ""
}

// turnOfCall is the index of the turn holding the call'th call.
func turnOfCall(s *transcript.Session, call int) int {
	n := 0
	for i, t := range s.Turns {
		if t.Call != nil && !t.Prior {
			if n == call {
				return i
			}
			n++
		}
	}
	return len(s.Turns) - 1
}

// overwrittenLists are threads for task lists a rewrite emptied of their
// checked boxes: the finished work the list recorded is gone from the file,
// which the next session (or the person) has to check against git. A line
// in the summary alone goes unread; this is the one finding about a task
// list that is worth a memory of its own.
func overwrittenLists(s *transcript.Session) []Candidate {
	var out []Candidate
	for _, l := range writtenTaskLists(s) {
		if !l.overwritten {
			continue
		}
		t := s.Turns[l.at]
		out = append(out, Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject,
			Title: titleFrom(fmt.Sprintf("Task list %s overwritten: %d+ done, now %d open", l.path, l.before, l.open)),
			Body: fmt.Sprintf("The session wrote %s whole as %d open tasks. The version it replaced, as the session read it, had %d or more tasks checked done, "+
				"so the file no longer records that work. Compare it with git (`git diff -- %s`) and restore what was done.", l.path, l.open, l.before, l.path),
			Tags: []string{"tasks"}, Status: schema.StatusOpen, Turns: []string{t.Ref},
			Rule: "a rewrite replaced a task list's checked tasks with open ones", Confidence: 0.8, Time: t.Time})
	}
	return out
}
