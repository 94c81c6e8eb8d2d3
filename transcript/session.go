package transcript

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
)

func (s *Session) warnf(format string, args ...any) {
	if len(s.Warnings) < 100 {
		s.Warnings = append(s.Warnings, s.Path+": "+fmt.Sprintf(format, args...))
	}
}

// inject records text the harness put in the person's place.
func (s *Session) inject(base Turn, source, text string) {
	t := base
	t.Speaker, t.Source, t.Text = Injected, source, strings.TrimSpace(text)
	s.Turns = append(s.Turns, t)
}

// person files a user message: the injected spans apart, a slash
// command's arguments and a ! command as the person's, a template's body
// as injected, what is left as what the person typed.
func (s *Session) person(base Turn, text string) {
	said, spans := splitInjected(text)
	for _, sp := range spans {
		switch sp.Source {
		case "bash-input":
			t := base
			t.Speaker, t.Source = Person, "bash-mode"
			t.Call = &Call{ID: base.Ref, Tool: "Bash", Command: sp.Text, Status: Unknown, ByPerson: true}
			s.Turns = append(s.Turns, t)
		case "bash-output", "bash-error":
			s.personOutput(sp.Source, sp.Text)
		case "command", "command-args":
		default:
			s.inject(base, sp.Source, sp.Text)
			if sp.Source == "instructions" {
				s.Instructed = append(s.Instructed, sp.Text)
			}
		}
	}
	if name, args, ok := commandArgs(spans); ok {
		s.inject(base, "command", "/"+name)
		if args != "" {
			said = strings.TrimSpace(args + "\n" + said)
		}
	}
	if said == "" {
		return
	}
	if own, ok := splitTemplate(said); ok {
		body := strings.Replace(said, own, "", 1)
		s.inject(base, "template", body)
		s.Instructed = append(s.Instructed, body)
		said = own
		if said == "" {
			return
		}
	}
	said = plainText(said)
	t := base
	t.Speaker, t.Text, t.Form = Person, said, formOf(said)
	s.Turns = append(s.Turns, t)
}

// personOutput attaches the output of a ! command to it. The agent keeps
// no exit code for these: an error on stderr is a failure, output
// without one a success.
func (s *Session) personOutput(source, out string) {
	for i := len(s.Turns) - 1; i >= 0 && i >= len(s.Turns)-3; i-- {
		c := s.Turns[i].Call
		if c == nil || !c.ByPerson {
			continue
		}
		if out = strings.TrimSpace(out); out != "" {
			c.Output = bound(strings.TrimSpace(c.Output + "\n" + out))
		}
		switch {
		case source == "bash-error" && reErrorWord.MatchString(out):
			c.Status = Failed
		case c.Status == Unknown && c.Output != "":
			c.Status = OK
		}
		return
	}
}

var reErrorWord = lazyre.New(`(?i)\b(error|failed|fatal|not found|denied)\b`)

// markPrior marks turns another session wrote before this one began: a
// resumed conversation carries its history.
func (s *Session) markPrior() {
	var first = -1
	for i, t := range s.Turns {
		if t.session == s.ID && !t.Time.IsZero() {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	start := s.Turns[first].Time
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.session != "" && t.session != s.ID && !t.Time.IsZero() && t.Time.Before(start) {
			t.Prior = true
		}
	}
}

// settle runs once a session is read: quoted instruction files taken out
// of the person's words, the time span, what sidechains did.
func (s *Session) settle() {
	known := instructionLines(s.Instructed)
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.Speaker == Person && t.Call == nil && len(known) > 0 {
			if own, cut := dropKnownLines(t.Text, known); cut {
				t.Text, t.Form = own, formOf(own)
			}
		}
		if t.Prior || t.Time.IsZero() {
			continue
		}
		if s.Start.IsZero() || t.Time.Before(s.Start) {
			s.Start = t.Time
		}
		if t.Time.After(s.End) {
			s.End = t.Time
		}
	}
	// Turns emptied by the cleaning are gone.
	out := s.Turns[:0]
	for _, t := range s.Turns {
		if t.Call != nil || t.Text != "" || t.Speaker == Injected {
			out = append(out, t)
		}
	}
	s.Turns = out
}

// instructionLines are the lines of instruction files and templates worth
// recognising when a person pastes them back.
func instructionLines(texts []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			if k := lineKey(l); len(k) >= 24 {
				out[k] = true
			}
		}
	}
	return out
}

func lineKey(l string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.Trim(strings.TrimSpace(l), "-*#>` ")), " "))
}

// dropKnownLines removes the lines of text an instruction file already
// holds. It reports whether any was removed.
func dropKnownLines(text string, known map[string]bool) (string, bool) {
	lines := strings.Split(text, "\n")
	kept := lines[:0:0]
	cut := false
	for _, l := range lines {
		if known[lineKey(l)] {
			cut = true
			continue
		}
		kept = append(kept, l)
	}
	if !cut {
		return text, false
	}
	return strings.TrimSpace(strings.Join(kept, "\n")), true
}

func str(m map[string]any, k string) string {
	if m == nil {
		return ""
	}
	s, _ := m[k].(string)
	return s
}

// AddReply appends the agent's last reply when the transcript does not
// hold it yet: agents write the file asynchronously, and on Stop it may
// lag behind the reply the hook was given.
func (s *Session) AddReply(text string, at time.Time) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	for i := len(s.Turns) - 1; i >= 0; i-- {
		if s.Turns[i].IsAgent() {
			if s.Turns[i].Text == text {
				return
			}
			break
		}
	}
	s.Turns = append(s.Turns, Turn{Ref: "stop", Speaker: Agent, Text: text, Time: at})
	if at.After(s.End) {
		s.End = at
	}
}
