package extract

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// How the person told the agent to build something, when the session
// built it that way: "make create_customer use an Ecto.Multi", "use
// `ObjectId.object_id("cont")` to set the id", "alter the existing
// migration". A request that only says what to do ("add a version
// field") chooses nothing; one that names the mechanism or the place
// chooses how, and the edit that carries the name shows it was followed.

var (
	// reUseMarker opens the mechanism a request names.
	reUseMarker = lazyre.New(`(?i)\b(?:use|uses|using|via)\s+`)
	// reMechanismEnd closes the mechanism's phrase: what follows is its
	// purpose or another clause.
	reMechanismEnd = lazyre.New(`(?i)[,;:.!?]|\s(?:to|for|so|in|on|and|instead|rather|when|because|which|that|then|than|from|as|with)\s`)
	// reLeadArticle is an article or possessive before a mechanism.
	reLeadArticle = lazyre.New(`(?i)^(?:(?:a|an|the|our|its|their|this|that)\s+|[A-Z]\w*'s\s+)`)
	// reCodeIdent is an identifier a request can name: Module.function,
	// snake_case, CamelCase.
	reCodeIdent = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	// reIdentFileExt ends a dotted name that is a file, a place and not a
	// mechanism.
	reIdentFileExt = lazyre.New(`\.(?:go|py|js|mjs|ts|tsx|jsx|ex|exs|rb|rs|md|json|ya?ml|toml|txt|sh|css|html|heex|lock|nix|lua|php|java|kt|c|h|cpp|sql|conf|cfg|ini)$`)
	// reExisting is a request for the existing thing over a new one.
	reExisting = lazyre.New(`(?i)^(?:alter|change|modify|update|edit|extend|amend|reuse)\s+(?:the|our)\s+existing\s+([a-z][a-z-]{2,})\b(?:\s+to\s+(.+))?`)
	// reUndo is a later request undoing a mechanism.
	reUndo = lazyre.New(`(?i)\b(?:don'?t|do not|not|instead|revert\w*|remove|drop|undo|stop using|no longer|without)\b`)
)

// maxDirective is the longest sentence read as a directive on how to
// build: "use the optimistic lock for all changes" is one; a long request
// that names a library on its way through its steps describes a task,
// which readers took for a one-off, not a decision.
const maxDirective = 160

// prose files hold plans and notes: a name written there is not built.
var reProseFile = lazyre.New(`(?i)\.(?:md|mdx|txt|rst|adoc)$`)

// extractRequested finds the requests that chose a mechanism or a place
// and were carried out.
func extractRequested(s *transcript.Session) []Candidate {
	var out []Candidate
	said, at := saidAt(s)
	for n, t := range said {
		// Most requests name no mechanism: look no further at them.
		if t.Source != "" || !reNamesHow.MatchString(t.Text) {
			continue
		}
		writes := writesAfter(s, at[n], said[n+1:], at[n+1:])
		if len(writes) == 0 {
			continue
		}
		later := said[n+1:]
		sents := sentences(withoutTags(t.Text))
		for i := range sents {
			if c, ok := requestedMechanism(s, sents, i, writes, later); ok {
				c.Turns, c.Time = []string{t.Ref}, t.Time
				out = append(out, c)
			}
		}
	}
	return out
}

var reNamesHow = lazyre.New(`(?i)\b(?:use|uses|using|via|existing)\b`)

// saidAt is s.Said() with each turn's index in s.Turns.
func saidAt(s *transcript.Session) ([]transcript.Turn, []int) {
	var said []transcript.Turn
	var at []int
	for i, t := range s.Turns {
		if t.IsPerson() && t.Form != transcript.Pasted {
			said, at = append(said, t), append(at, i)
		}
	}
	return said, at
}

// writesAfter are the calls that wrote code after the request at start
// and before the next request that is not a bare "yes".
func writesAfter(s *transcript.Session, start int, later []transcript.Turn, laterAt []int) []*transcript.Call {
	end := len(s.Turns)
	for k, l := range later {
		if !reYes.MatchString(l.Text) || len(l.Text) > 80 {
			end = laterAt[k]
			break
		}
	}
	var out []*transcript.Call
	for _, u := range s.Turns[start+1 : end] {
		c := u.Call
		if c == nil || u.Sidechain || u.Prior || len(c.Files) == 0 || (c.Status != transcript.OK && c.Status != transcript.Unknown) {
			continue
		}
		if slices.ContainsFunc(c.Files, func(f string) bool { return !reProseFile.MatchString(f) }) {
			out = append(out, c)
		}
	}
	return out
}

// requestedMechanism reads sentence i of a request as a chosen mechanism
// or place that the writes carried out.
func requestedMechanism(s *transcript.Session, sents []string, i int, writes []*transcript.Call, later []transcript.Turn) (Candidate, bool) {
	sent := statement(sents[i])
	if strings.HasSuffix(sent, "?") || reMaybe.MatchString(sent) || len(sent) > maxDirective {
		return Candidate{}, false
	}
	if _, stated := statedDecision(sent); stated {
		return Candidate{}, false // the decisions extractor tells it already
	}
	if c, ok := existingPlace(s, sent, writes); ok {
		return c, true
	}
	loc := reUseMarker.FindStringIndex(sent)
	if loc == nil {
		return Candidate{}, false
	}
	phrase := sent[loc[1]:]
	code, name, files := builtWith(s, phrase, writes)
	if code == "" || saidLater(later, strings.Trim(code, "`"), reUndo) {
		return Candidate{}, false
	}
	subj := mechanismSubject(sent[:loc[0]])
	if subj == "" && i > 0 {
		subj = lastIdent(sents[i-1])
	}
	if subj == "" {
		subj = strings.TrimSuffix(path.Base(files[0]), path.Ext(files[0]))
	}
	subj = asCoded(subj, writes)
	title := subj + ": " + code
	if purpose := mechanismPurpose(phrase); purpose != "" {
		title += " " + purpose
	}
	body := "Asked: " + clip(oneLine(sent), 200) + "\nBuilt in: " + strings.Join(files, ", ")
	if l := lineWith(writes, name); l != "" {
		body += "\nAs: " + l
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: codeTitle(title, subj),
		Body: body,
		Tags: []string{"decision", "requested"},
		Rule: "person named how to build it and the edit carries it out", Confidence: 0.75}, true
}

// builtWith is the mechanism a phrase names as the writes spell it, and
// the files that carry it; "" when no write does.
func builtWith(s *transcript.Session, phrase string, writes []*transcript.Call) (string, string, []string) {
	phrase = strings.TrimSpace(phrase)
	phrase = reLeadArticle.ReplaceAllString(phrase, "")
	if strings.HasPrefix(phrase, "`") {
		span, _, ok := strings.Cut(phrase[1:], "`")
		id := reCodeIdent.FindString(span)
		if !ok || !strings.HasPrefix(span, id) || !identLike(id) || strings.Contains(strings.TrimSpace(strings.TrimPrefix(span, id)), " ") && !strings.HasPrefix(strings.TrimPrefix(span, id), "(") {
			return "", "", nil
		}
		return spelledIn(s, writes, func(tok string) bool { return tok == id }, span)
	}
	if loc := reMechanismEnd.FindStringIndex(phrase); loc != nil {
		phrase = phrase[:loc[0]]
	}
	ws := strings.Fields(phrase)
	if len(ws) == 0 || len(ws) > 4 {
		return "", "", nil
	}
	if identLike(ws[0]) {
		id := ws[0]
		return spelledIn(s, writes, func(tok string) bool { return tok == id }, id)
	}
	// "an ecto multi" is Ecto.Multi, "the optimistic lock" optimistic_lock:
	// two or three words the code writes as one compound name.
	for a := 0; a < len(ws); a++ {
		for b := a + 2; b <= min(a+3, len(ws)); b++ {
			joined := squash(strings.Join(ws[a:b], ""))
			if len(joined) < 6 {
				continue
			}
			match := func(tok string) bool {
				sq := squash(tok)
				return identLike(tok) && (sq == joined || sq+"s" == joined)
			}
			if code, name, files := spelledIn(s, writes, match, ""); code != "" {
				return code, name, files
			}
		}
	}
	return "", "", nil
}

// spelledIn finds the first identifier in the writes' new text that
// match accepts: how the code spells it (or shown, when given), and
// the files those writes touched.
func spelledIn(s *transcript.Session, writes []*transcript.Call, match func(string) bool, shown string) (string, string, []string) {
	var code string
	var files []string
	for _, c := range writes {
		found := ""
		for _, tok := range codeNames(writtenText(c)) {
			if match(tok) {
				found = tok
				break
			}
		}
		if found == "" {
			continue
		}
		if code == "" {
			code = found
		}
		for _, f := range c.Files {
			if f = rel(s, f); !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	if code != "" && shown != "" {
		return "`" + shown + "`", code, files
	}
	return code, code, files
}

// existingPlace reads "alter the existing migration to add X": the
// person chose the existing file over a new one, and the writes changed
// such a file and added none.
func existingPlace(s *transcript.Session, sent string, writes []*transcript.Call) (Candidate, bool) {
	m := reExisting.FindStringSubmatch(sent)
	if m == nil {
		return Candidate{}, false
	}
	stem := strings.TrimSuffix(strings.ToLower(m[1]), "s")
	var changed []string
	var first string
	for _, c := range writes {
		added := c.Tool == "Write" || len(addedFiles(patchText(c))) > 0
		for _, f := range c.Files {
			if !strings.Contains(strings.ToLower(f), stem) {
				continue
			}
			if added {
				return Candidate{}, false // a new one was made after all
			}
			if f = rel(s, f); !slices.Contains(changed, f) {
				changed = append(changed, f)
			}
			if first == "" && len(c.Files) == 1 {
				first = firstLine(writtenText(c))
			}
		}
	}
	if len(changed) == 0 {
		return Candidate{}, false
	}
	title := "In the existing " + m[1] + ", not a new one"
	if m[2] != "" {
		title = strings.TrimSpace(m[2]) + ": in the existing " + m[1] + ", not a new one"
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(title),
		Body: strings.TrimSpace("Asked: " + clip(oneLine(sent), 200) + "\nChanged: " + strings.Join(changed, ", ") + "\n" + first),
		Tags: []string{"decision", "requested"},
		Rule: "person chose the existing file and the edit changed it", Confidence: 0.75}, true
}
