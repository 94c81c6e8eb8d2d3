package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A person often gives a choice as a task, with what it replaces said
// around it rather than in one "let's go with X" sentence: "1. Remove
// Daisy ui. ... We are using plain tailwind v4.", "Instead of heroicons
// add a plugin for Tabler icons.", or a rule for where a kind of thing
// belongs. Such a line is a decision only once the session carried it
// out: a later edit removed the old thing or wrote the new one's name.

// directive is one choice read from a line of the person's words.
type directive struct {
	title, quote string
	// alt is what the choice was chosen over; removed says the session
	// must have taken it out of files. written are names it must have
	// put into them.
	alt     string
	removed bool
	written []string
}

var (
	// reRemoveItem is a list item's "Remove X" that names what the item
	// then says the project uses instead.
	reRemoveItem = lazyre.New(`(?i)^(?:completely\s+)?(?:remove|drop|get rid of)\s+(?:the\s+)?([A-Za-z][\w.+-]*(?:\s+[\w.+-]+){0,2}?)\s*(?:[,.!]|\s+(?:and its|and all|from|entirely|completely)\b|$)`)
	// reUsingNow is "we are using Y": the project's choice, as a fact.
	reUsingNow = lazyre.New(`(?i)^we(?:'re| are)\s+(?:now\s+|only\s+|just\s+)?(?:using|going with)\s+([^,;:]{3,50}?)[.!]?$`)
	// reInsteadLead is "instead of X, add Y" opening a sentence or a
	// clause after "and": the choice and its alternative.
	reInsteadLead = lazyre.New(`(?i)(?:^|\band\s+)instead of\s+(?:the\s+|using\s+)?([A-Za-z][\w.+-]*(?:\s+[\w.+-]+){0,2}?),?\s+((?:add|use|install|rename|call)\s+.{3,120}?)[.!]?$`)
	// reNamed are the names in a choice: a capitalized word past the
	// first, or one with a digit, dash or underscore.
	reNamed = lazyre.New(`(?:^|\s)((?:[A-Z][\w-]*|[a-z][\w]*[\d_-][\w-]*))`)
)

// directives reads the choices in one line (one list item or
// paragraph) of the person's words.
func directives(line string) []directive {
	low := strings.ToLower(line)
	if !strings.Contains(low, "instead of") && !strings.Contains(low, "we") {
		return nil // neither shape; most lines, read cheaply
	}
	sents := sentences(line)
	var out []directive
	if d, ok := removedForUsed(sents); ok {
		out = append(out, d)
	}
	for _, sent := range sents {
		if d, ok := insteadLead(sent); ok {
			out = append(out, d)
		}
	}
	return out
}

// removedForUsed is "Remove X. ... We are using Y." in one line: Y is
// the choice, X what it was chosen over.
func removedForUsed(sents []string) (directive, bool) {
	var alt, used string
	for _, s := range sents {
		if m := reRemoveItem.FindStringSubmatch(s); m != nil && alt == "" {
			alt = strings.TrimRight(strings.TrimSpace(m[1]), ".")
		}
		if m := reUsingNow.FindStringSubmatch(s); m != nil && used == "" {
			used = strings.TrimSpace(m[1])
		}
	}
	if alt == "" || used == "" || len(squash(alt)) < 4 || reProcess.MatchString(used) {
		return directive{}, false
	}
	return directive{title: used + ", not " + alt, quote: strings.Join(sents, " "), alt: alt, removed: true}, true
}

// insteadLead is "Instead of X, add Y": Y is the choice; the names in Y
// are what the session must have written.
func insteadLead(sent string) (directive, bool) {
	m := reInsteadLead.FindStringSubmatch(statement(sent))
	if m == nil || len(sent) > 300 {
		return directive{}, false
	}
	alt, choice := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	var names []string
	_, rest, _ := strings.Cut(choice, " ")
	for _, n := range reNamed.FindAllStringSubmatch(rest, -1) {
		if w := strings.Trim(n[1], "-"); len(w) >= 2 && !strings.Contains(strings.ToLower(alt), strings.ToLower(w)) {
			names = append(names, w)
		}
	}
	if len(names) == 0 {
		return directive{}, false // nothing to tell the choice by in the files
	}
	return directive{title: choice + " instead of " + alt, quote: sent, alt: alt, written: names}, true
}

// directedDecisions are the choices the person gave as tasks, each
// carried out after their turn and not taken back.
func directedDecisions(s *transcript.Session) []Candidate {
	var out []Candidate
	for i, t := range s.Turns {
		if !t.IsPerson() || t.Form == transcript.Pasted {
			continue
		}
		var ds []directive
		for line := range proseLines(t.Text) {
			ds = append(ds, directives(line)...)
		}
		ds = append(ds, placements(t.Text)...)
		for _, d := range ds {
			ev, ok := carriedOut(s, i, d)
			if !ok || saidLater(s.Turns[i+1:], d.alt, reBringBack) {
				continue
			}
			out = append(out, Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(ev.mend(d.title)),
				Body: directedBody(s, d, ev.files), Tags: []string{"decision"}, Turns: []string{t.Ref},
				Rule: "person directed a choice over an alternative, carried out", Confidence: 0.8, Time: t.Time})
		}
	}
	return out
}

// directedBody is the person's words and the files that carry the
// choice out: where a reader finds it.
func directedBody(s *transcript.Session, d directive, files []string) string {
	body := "“" + clip(oneLine(d.quote), 400) + "”"
	if len(files) > 0 {
		var rel []string
		for _, f := range files {
			rel = append(rel, relToCwd(f, s.Cwd))
		}
		body += "\n\nCarried out in: " + strings.Join(rel, ", ")
	}
	return body
}

// relToCwd is a file under the session's directory from there on.
func relToCwd(f, cwd string) string {
	f = strings.ReplaceAll(f, `\`, "/")
	cwd = strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if cwd != "" && strings.HasPrefix(f, cwd+"/") {
		return f[len(cwd)+1:]
	}
	return f
}
