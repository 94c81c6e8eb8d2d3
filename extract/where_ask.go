package extract

import (
	"path"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// whereAsk is a person's question about where a thing is: "where is the
// model?", "where is X called from?", "what is the URL for the docs?".
type whereAsk struct {
	text    string // the question as asked
	subject string // "the model", "X", "it"
	aux     string // is, are, does, would, ...
	rest    string // what follows the subject: "called from", "be generated"
	url     bool   // asks for a URL, not a path
}

// reWhereClause is a clause that opens with "where" and a verb, after at
// most a word of lead-in ("so where is", "ok where is", "…, where would"):
// "where did we leave off" is turned away by its subject, "review where it
// went wrong" never matches.
var reWhereClause = lazyre.New(`(?i)^(?:(?:so|ok|okay|and|then|but|now|yes|ah|oh|hmm|\d+)[,.]?\s+)?where(?:'s|\s+(is|are|was|were|does|do|did|would|should|will|can|could))\s+(.+)$`)

// reURLAsk is a question after a URL: "what would be the URL for X?".
var reURLAsk = lazyre.New(`(?i)^(?:(?:so|ok|okay|and|then|but|now)[,.]?\s+)?what(?:'s|\s+is|\s+would\s+be|\s+will\s+be)\s+the\s+(?:url|address)\s+(?:for|of|to)\s+(.+)$`)

// whereQuestion finds the where-question in what the person said.
func whereQuestion(text string) (whereAsk, bool) {
	cs := clauses(text)
	for i, clause := range cs {
		if m := reURLAsk.FindStringSubmatch(clause); m != nil {
			subj := trimFiller(m[1])
			return whereAsk{text: clause, subject: subj, url: true}, specific(subj)
		}
		m := reWhereClause.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		aux := strings.ToLower(m[1])
		if aux == "" {
			aux = "is"
		}
		subj, rest := splitSubject(trimFiller(m[2]))
		if subj == "" || people[strings.ToLower(strings.Fields(subj)[0])] {
			continue // "where are we", "where did you put it": not a place in the project
		}
		if pronouns[strings.ToLower(subj)] {
			subj = antecedent(cs[:i], subj)
		}
		return whereAsk{text: clause, subject: subj, aux: aux, rest: rest}, true
	}
	return whereAsk{}, false
}

// reDemonstrative is a thing pointed at earlier in the message: "let's
// add that proto first, where is it?".
var reDemonstrative = lazyre.New(`(?i)\b(?:that|this)\s+(\w+)`)

// antecedent is what a pronoun in a where-question points back to in the
// same message, when that names a kind of thing; else the pronoun.
func antecedent(before []string, pronoun string) string {
	for i := len(before) - 1; i >= 0; i-- {
		ms := reDemonstrative.FindAllStringSubmatch(before[i], -1)
		if len(ms) > 0 && kindWords[strings.ToLower(ms[len(ms)-1][1])] {
			return "the " + strings.ToLower(ms[len(ms)-1][1])
		}
	}
	return pronoun
}

// people are subjects that make "where" a question about the work, not a
// place: "where are we", "where did I leave off".
var people = map[string]bool{"we": true, "i": true, "you": true, "u": true, "they": true}

// clauses cuts a person's message at question marks, sentence ends,
// commas and lines: a question is often tacked on ("…, where is it?").
func clauses(text string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == '?' || r == '!' || r == '\n' || r == ';' || r == ',' }) {
		for _, s := range strings.Split(part, ". ") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// verbs end a question's subject: "where is X called from", "where
// would it be generated", "where does X live".
var verbs = map[string]bool{"be": true, "defined": true, "generated": true, "configured": true, "called": true, "stored": true,
	"kept": true, "set": true, "located": true, "used": true, "declared": true, "registered": true, "wired": true, "published": true,
	"hosted": true, "built": true, "installed": true, "written": true, "created": true, "imported": true, "loaded": true,
	"handled": true, "rendered": true, "mounted": true, "deployed": true, "served": true, "live": true, "lives": true, "come": true,
	"comes": true, "go": true, "goes": true, "end": true, "ends": true, "sit": true, "sits": true, "put": true, "saved": true}

// determiners make the word after them part of the subject: "the
// generated code".
var determiners = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true,
	"its": true, "my": true, "our": true, "your": true, "their": true}

func splitSubject(s string) (subject, rest string) {
	ws := strings.Fields(s)
	for i, w := range ws {
		lw := strings.ToLower(w)
		if i > 0 && (verbs[lw] || w == lw && strings.HasSuffix(w, "ed")) && !determiners[strings.ToLower(ws[i-1])] {
			return strings.Join(ws[:i], " "), strings.Join(ws[i:], " ")
		}
	}
	return s, ""
}

// filler closes a spoken question without meaning.
var filler = map[string]bool{"then": true, "now": true, "again": true, "exactly": true, "actually": true, "right": true, "though": true,
	"anyway": true, "btw": true, "pls": true, "please": true}

// trimFiller drops filler and trailing references back ("for that") off
// a question's end.
func trimFiller(s string) string {
	ws := strings.Fields(strings.TrimRight(s, " ?.!"))
	for len(ws) > 0 && filler[strings.ToLower(ws[len(ws)-1])] {
		ws = ws[:len(ws)-1]
	}
	if n := len(ws); n >= 2 && strings.EqualFold(ws[n-2], "for") && pronouns[strings.ToLower(ws[n-1])] {
		ws = ws[:n-2]
	}
	return strings.Join(ws, " ")
}

var pronouns = map[string]bool{"it": true, "that": true, "this": true, "they": true, "them": true, "those": true, "these": true,
	"that one": true, "this one": true, "one": true}

func (q whereAsk) pronoun() bool { return pronouns[strings.ToLower(q.subject)] }

// kindWords name a kind of thing, not which one: "the model", "the
// generated code" could be anywhere in any project.
var kindWords = map[string]bool{"model": true, "models": true, "code": true, "generated": true, "gen": true, "file": true,
	"files": true, "config": true, "configuration": true, "settings": true, "setting": true, "proto": true, "protos": true,
	"schema": true, "function": true, "func": true, "method": true, "class": true, "type": true, "types": true, "struct": true,
	"test": true, "tests": true, "script": true, "scripts": true, "output": true, "folder": true, "directory": true, "dir": true,
	"thing": true, "stuff": true, "definition": true, "module": true, "package": true, "source": true, "logic": true,
	"handler": true, "endpoint": true, "data": true, "template": true, "component": true, "repo": true, "project": true,
	"app": true, "one": true, "main": true, "entry": true, "point": true, "docs": true, "site": true, "page": true, "pages": true,
	"service": true, "implementation": true, "impl": true, "interface": true, "mock": true, "mocks": true, "log": true, "logs": true}

// specific reports a subject a reader can tell apart from others like
// it: it has a name (an identifier, a file, a word not generic).
func specific(subj string) bool {
	for _, w := range strings.Fields(subj) {
		if strings.ContainsAny(w, "_./") || hasInnerUpper(w) {
			return true
		}
		for _, x := range words(w) {
			if len(x) > 2 && !stopWords[x] && !kindWords[x] && !pronouns[x] {
				return true
			}
		}
	}
	return false
}

// reAnswerSubject is an answer naming what lives at the path: "That's
// where handset.pb.go and the gRPC stub live", "The config lives in".
var reAnswerSubject = lazyre.New(`(?i)(?:\bthat'?s where|^)\s*(.{3,80}?)\s+(?:lives?|sits?)\b`)

// answerSubject is the specific thing an answer says lives at its path,
// or "".
func answerSubject(lead string) string {
	for _, s := range splitSentences(strings.ReplaceAll(lead, "`", "")) {
		if m := reAnswerSubject.FindStringSubmatch(strings.TrimSpace(s)); m != nil && specific(m[1]) && !strings.Contains(m[1], "/") {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// plainDirs are path parts that say nothing of which thing a path holds.
var plainDirs = map[string]bool{"services": true, "service": true, "pkg": true, "internal": true, "cmd": true, "src": true,
	"lib": true, "app": true, "apps": true, "generated": true, "gen": true, "protos": true, "proto": true, "apis": true, "api": true,
	"models": true, "model": true, "go": true, "packages": true, "modules": true, "users": true, "home": true, "code": true,
	"config": true, "configs": true, "test": true, "tests": true, "docs": true, "scripts": true, "www": true, "http": true,
	"https": true, "com": true, "github": true, "io": true}

// qualified names a generic subject by its path: "the model" in
// services/handset/internal/models/models.go is "the handset model".
func qualified(subj string, paths []string) string {
	have := subject(subj)
	// A file's own name says most; its directories come next.
	parts := strings.Split(strings.TrimSuffix(paths[0], path.Ext(paths[0])), "/")
	if path.Ext(paths[0]) != "" {
		parts = append(parts[len(parts)-1:], parts[:len(parts)-1]...)
	}
	for _, part := range parts {
		w := strings.ToLower(part)
		if len(w) < 3 || plainDirs[w] || have[w] || strings.ContainsAny(w, ".@~") || reVersionDir.MatchString(w) {
			continue
		}
		ws := strings.Fields(subj)
		if len(ws) > 1 && (strings.EqualFold(ws[0], "the") || strings.EqualFold(ws[0], "that") || strings.EqualFold(ws[0], "this")) {
			return "the " + part + " " + strings.Join(ws[1:], " ")
		}
		return part + " " + subj
	}
	return ""
}

var reVersionDir = lazyre.New(`^v\d+$`)

// verb is the question's verb as a title states it: "where is the
// model" titles "Where the handset model lives"; "where is X called
// from", "Where X is called from".
func (q whereAsk) verb(subj string) string {
	plural := strings.Contains(subj, " and ") || strings.HasSuffix(subj, "s") && !strings.HasSuffix(subj, "ss") && !strings.Contains(subj, ".")
	is := "is"
	if plural {
		is = "are"
	}
	rest := q.rest
	switch {
	case rest == "":
		if plural {
			return "live"
		}
		return "lives"
	case strings.HasPrefix(rest, "be "):
		return is + " " + strings.TrimPrefix(rest, "be ")
	case q.aux == "is" || q.aux == "are" || q.aux == "was" || q.aux == "were":
		return is + " " + rest
	case q.aux == "does" && !plural && !strings.HasSuffix(strings.Fields(rest)[0], "s"):
		first, tail, _ := strings.Cut(rest, " ")
		return strings.TrimSpace(first + "s " + tail)
	}
	return rest
}
