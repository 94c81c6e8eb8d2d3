package bench

import (
	"regexp"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Classes of failure found without labels.
const (
	ClassMarkup   = "injected-markup"  // a harness tag or note in a memory
	ClassDate     = "date"             // dated outside the session
	ClassFailure  = "invented-failure" // a failing thread the session never had
	ClassGarbled  = "garbled"          // a markdown remnant or a sentence cut mid-word in a title
	ClassNoResult = "lost-session"     // capture failed: nothing written
)

var reMarkup = regexp.MustCompile(`(?i)(<system-reminder|<command-(name|message|args)|<local-command-|<ide_(selection|opened_file)|<bash-(input|stdout|stderr)|<environment_context|<user_instructions|<permissions instructions|<collaboration_mode|<user-prompt-submit-hook|\[request interrupted by user|# agents\.md instructions|this session is being continued from a previous conversation|caveat: the messages below were generated)`)

var (
	reGarbled = regexp.MustCompile(`(\*\*|__|^[*_\-:;,]|[*_]$|\b\w+\*\*)`)
	// reDunder is a name like __main__.py or __init__: code, not a
	// markdown remnant.
	reDunder = regexp.MustCompile(`__[A-Za-z0-9]+__`)
)

// deletable are the checks that make a memory one a reader deletes; a
// wrong date or a garbled title is a defect, but the memory may be kept.
func deletable(class string) bool { return class == ClassMarkup || class == ClassFailure }

// checks finds what is wrong with a memory whatever the labels say.
func checks(m *schema.Memory, s *transcript.Session) []string {
	var out []string
	text := m.Title + "\n" + m.Summary + "\n" + m.Body
	if reMarkup.MatchString(text) {
		out = append(out, ClassMarkup)
	}
	if !s.Start.IsZero() && !s.End.IsZero() {
		// What the session wrote is dated within it; a memory it merged
		// into was created earlier, never later.
		lo, hi := s.Start.Add(-time.Hour), s.End.Add(time.Hour)
		if m.Updated.Before(lo) || m.Updated.After(hi) || m.Created.After(hi) {
			out = append(out, ClassDate)
		}
	}
	if m.Kind == schema.KindThread && m.Status.Current() && hasTag(m.Tags, "failing") && !failedAtEnd(s, m.Body) {
		out = append(out, ClassFailure)
	}
	if reGarbled.MatchString(reDunder.ReplaceAllString(strings.TrimSpace(m.Title), "dunder")) {
		out = append(out, ClassGarbled)
	}
	return out
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if strings.EqualFold(x, t) {
			return true
		}
	}
	return false
}

// failedAtEnd reports whether a command the memory names ran, failed, and
// never passed afterwards in the session.
func failedAtEnd(s *transcript.Session, body string) bool {
	last := map[string]transcript.Status{}
	for _, c := range s.Calls() {
		if c.Command != "" && (c.Status == transcript.OK || c.Status == transcript.Failed) {
			last[c.Command] = c.Status
		}
	}
	for cmd, st := range last {
		if st == transcript.Failed && strings.Contains(body, firstLine(cmd)) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}
