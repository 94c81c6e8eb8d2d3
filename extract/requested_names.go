package extract

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// How the code spells what the person asked for: the names a write
// holds, the request's subject as the code calls it, and the line that
// carries it.

// codeNames are the names in code text, with the leading parts of a
// dotted chain: Ecto.Multi.new() names Ecto.Multi too.
func codeNames(text string) []string {
	var out []string
	for _, tok := range reCodeIdent.FindAllString(text, -1) {
		out = append(out, tok)
		for i := strings.LastIndexByte(tok, '.'); i > 0; i = strings.LastIndexByte(tok, '.') {
			tok = tok[:i]
			out = append(out, tok)
		}
	}
	return out
}

// identLike reports a name code would use and prose would not:
// Module.function, snake_case, CamelCase; not a file name.
func identLike(w string) bool {
	if w == "" || reIdentFileExt.MatchString(w) {
		return false
	}
	if strings.Contains(w, ".") && strings.IndexFunc(w, unicode.IsUpper) >= 0 {
		return true
	}
	if strings.Contains(strings.Trim(w, "_"), "_") {
		return true
	}
	r := []rune(w)
	for i := 1; i < len(r); i++ {
		if unicode.IsUpper(r[i]) && unicode.IsLower(r[i-1]) {
			return true
		}
	}
	return false
}

// mechanismSubject is what the mechanism is for, from the words before
// it: the last identifier there ("create_customer"), else the clause
// without its imperative lead ("all changes to the user resource").
func mechanismSubject(before string) string {
	if id := lastIdent(before); id != "" {
		return id
	}
	b := reSubjectLead.ReplaceAllString(strings.TrimSpace(before), "")
	if len(strings.Fields(b)) > 8 {
		return ""
	}
	return strings.TrimSpace(b)
}

var reSubjectLead = lazyre.New(`(?i)^(?:(?:please|now|also|then)\s+)*(?:make sure|ensure|ensure that|make sure that|i want|we want|have|let|make)?\s*`)

// lastIdent is the last code-like name in s.
func lastIdent(s string) string {
	ids := reCodeIdent.FindAllString(s, -1)
	for i := len(ids) - 1; i >= 0; i-- {
		if identLike(ids[i]) {
			return ids[i]
		}
	}
	return ""
}

// mechanismPurpose is the "to set the id" after a mechanism.
func mechanismPurpose(phrase string) string {
	i := strings.Index(phrase, " to ")
	if i < 0 || i > 60 {
		return ""
	}
	return clip(strings.TrimSpace(phrase[i:]), 80)
}

// asCoded is a subject as the code spells it: the person's
// "Backoffice.Custoemrs.Contact" is the code's Contact when only the
// last part is written.
func asCoded(subj string, writes []*transcript.Call) string {
	if !identLike(subj) || !strings.Contains(subj, ".") {
		return subj
	}
	last := subj[strings.LastIndexByte(subj, '.')+1:]
	for _, c := range writes {
		if slices.Contains(codeNames(writtenText(c)), subj) {
			return subj
		}
	}
	for _, c := range writes {
		for _, f := range c.Files {
			if b := path.Base(f); squash(strings.TrimSuffix(b, path.Ext(b))) == squash(last) {
				return last
			}
		}
	}
	return subj
}

// codeTitle is a title that keeps a leading identifier's case:
// create_customer is not Create_customer.
func codeTitle(title, subj string) string {
	t := titleFrom(title)
	if identLike(subj) && strings.HasPrefix(title, subj) && len(t) >= len(subj) {
		return subj + t[len(subj):]
	}
	return t
}

// lineWith is the first line the writes added that holds name, trimmed:
// how the code says it.
func lineWith(writes []*transcript.Call, name string) string {
	for _, c := range writes {
		for l := range strings.SplitSeq(writtenText(c), "\n") {
			if strings.Contains(l, name) {
				return clip(oneLine(l), 120)
			}
		}
	}
	return ""
}

// firstLine is the first line with words of a write, as "Added: ...".
func firstLine(text string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if l = oneLine(l); len(l) > 3 {
			return "Added: " + clip(l, 120)
		}
	}
	return ""
}
