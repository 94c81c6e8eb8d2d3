package extract

import (
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// A cause in "X, not Y" form ("QAction must be imported from
// PySide6.QtGui, not QtWidgets") is a rule a reader keeps, when the
// session shows both sides: Y in what failed, X in what the fix wrote.
// Without that it is the agent's guess and is read as any other cause.

const codeTok = "`[^`\\s][^`]{0,60}`|[\\w][\\w.:/@-]{1,60}"

var (
	reContrastComma = lazyre.New(`(` + codeTok + `),\s+not\s+(?:the\s+|an?\s+)?(` + codeTok + `)`)
	reContrastParen = lazyre.New(`(` + codeTok + `)\s+\(not\s+(?:the\s+|an?\s+)?(` + codeTok + `)\)`)
	// reCodeShape is a name written as code: mixed case past the first
	// letter, a digit, or a dot, slash or underscore joining words.
	reCodeShape = lazyre.New(`[a-z][A-Z]|[A-Z]{2}|[A-Za-z]\d|\w[._/:]\w`)
	// reChatLead opens a reply without saying anything about the problem:
	// "You're right:", "Good catch —", "Thanks for the traceback.".
	reChatLead = lazyre.New(`(?i)^(?:(?:good|great|nice|sharp) (?:catch|call|eye|spot)|you(?:'|’)?re (?:right|correct|absolutely right)|thanks(?: for [^:.,!—–]{1,40})?|thank you(?: for [^:.,!—–]{1,40})?|sorry(?: about that| for [^:.,!—–]{1,40})?|ah(?: ha)?|i see)\s*(?:[:,.!—–-]\s*|$)`)
)

// dropChatLead takes the conversational openers off a cause sentence.
func dropChatLead(s string) string {
	for {
		t := reChatLead.ReplaceAllString(s, "")
		if t == s {
			return s
		}
		s = strings.TrimSpace(t)
	}
}

// contrast reads "X, not Y" or "X (not Y)" in a sentence where both sides
// are names written as code; ok is false otherwise ("VRT errors, not
// setup errors" contrasts words, not names).
func contrast(sent string) (x, y string, ok bool) {
	for _, re := range []*lazyre.Regexp{reContrastComma, reContrastParen} {
		m := re.FindStringSubmatch(sent)
		if m == nil {
			continue
		}
		x, qx := codeName(m[1])
		y, qy := codeName(m[2])
		if len(x) < 3 || len(y) < 3 || x == y || !(qx || reCodeShape.MatchString(x)) || !(qy || reCodeShape.MatchString(y)) {
			return "", "", false
		}
		return x, y, true
	}
	return "", "", false
}

// codeName is a token without its backticks or closing punctuation, and
// whether it was quoted as code.
func codeName(tok string) (string, bool) {
	quoted := strings.HasPrefix(tok, "`")
	return strings.TrimRight(strings.Trim(tok, "`"), ".:;!?"), quoted
}

// contrastHolds reports the session showing both sides of "X, not Y":
// Y in the failure (its output, the command, the person's report) and
// X in what was written to fix it, from the problem to the person's next
// word after the explanation at.
func contrastHolds(s *transcript.Session, at int, p problem, x, y string) bool {
	failed := p.turn.Text
	if p.call != nil {
		failed += "\n" + p.call.Command + "\n" + p.call.Output
	}
	if !hasName(failed, y) {
		return false
	}
	for i := p.start + 1; i < len(s.Turns); i++ {
		t := s.Turns[i]
		if i > at && t.IsPerson() {
			break
		}
		if t.Call != nil && !t.Prior && len(t.Call.Files) > 0 && hasName(writtenText(t.Call), x) {
			return true
		}
	}
	return false
}

// hasName reports name in text as a whole name: "backstop" is not in
// "backstopjs".
func hasName(text, name string) bool {
	re, err := regexp.Compile(`(?:^|[^\w])` + regexp.QuoteMeta(name) + `(?:[^\w]|$)`)
	return err == nil && re.MatchString(text)
}

// patchText is what a call could carry a patch in: a shell command (a
// heredoc to apply_patch), or the patch input of an apply_patch call.
func patchText(c *transcript.Call) string {
	patch := c.Command
	for _, k := range []string{"input", "patch"} {
		if v, ok := c.Input[k].(string); ok {
			patch += "\n" + v
		}
	}
	return patch
}

// writtenText is what a call put into files: a patch's added lines, an
// edit's new text, a new file's content.
func writtenText(c *transcript.Call) string {
	var b strings.Builder
	for l := range strings.SplitSeq(patchText(c), "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			b.WriteString(l[1:] + "\n")
		}
	}
	for _, p := range editPairs(c) {
		b.WriteString(p[1] + "\n")
	}
	for _, k := range []string{"content", "new_str", "file_text"} {
		if v, ok := c.Input[k].(string); ok {
			b.WriteString(v + "\n")
		}
	}
	return b.String()
}

// contrastCause is the first of sents naming the cause as "X, not Y"
// with both sides seen in the session.
func contrastCause(s *transcript.Session, at int, p problem, sents []string) (string, bool) {
	for _, sent := range sents {
		if x, y, ok := contrast(sent); ok && contrastHolds(s, at, p, x, y) {
			return sent, true
		}
	}
	return "", false
}

// rePromptLine is a shell prompt line in pasted terminal output: the
// command the person ran ("$ make", "❯ docker compose run ...").
var rePromptLine = lazyre.New(`(?m)^\s*(?:\$|❯)\s+(\S.{2,158})$`)

// passed says how a call that ran clean after a fix showed it held: a
// check passed, or the failing command (run by the agent, or by the
// person at the prompt of the output they pasted) ran again; "" when it
// shows neither.
func passed(c *transcript.Call, p problem) string {
	if _, cmd, _, ok := verifyCommand(c.Command); ok {
		return "`" + cmd + "` passed afterwards."
	}
	if p.call != nil && sameCommand(c, p.call) {
		return "`" + shortCmd(c.Command) + "` passed afterwards."
	}
	if p.call == nil && c.Command != "" {
		ran := bareCommand(c.Command)
		for _, m := range rePromptLine.FindAllStringSubmatch(p.turn.Text, 8) {
			if bareCommand(m[1]) == ran {
				return "`" + ran + "` ran afterwards."
			}
		}
	}
	return ""
}

// bareCommand is a command line's command without the cd before it or
// the pipes and redirections after it.
func bareCommand(cmd string) string {
	cmd = shortCmd(cmd)
	cmd = reShellTail.ReplaceAllString(cmd, "")
	return strings.TrimSpace(reRedirect.ReplaceAllString(cmd, ""))
}

var reTrailingPath = lazyre.New(`\s*\((?:/|[A-Za-z]:\\)[^)]*\)$`)

// failureLine is what a reader is shown of the failure a contrast
// explains: the error line naming its wrong side, else the symptom.
func failureLine(p problem, cause string) string {
	_, y, _ := contrast(cause)
	text := p.turn.Text
	if p.call != nil {
		text = p.call.Output
	}
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.TrimSpace(l)
		if reErrorLine.MatchString(l) && hasName(l, y) {
			l = reTrailingPath.ReplaceAllString(l, "") // where the module lives says nothing
			if p.call != nil && p.call.Command != "" {
				return "`" + shortCmd(p.call.Command) + "` failed: " + clip(l, 200)
			}
			return clip(l, 200)
		}
	}
	return p.symptom
}
