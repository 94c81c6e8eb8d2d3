package extract

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
)

// EventKind says what an event is.
type EventKind string

// Event kinds.
const (
	EventText       EventKind = "text"        // something a person or the agent said
	EventToolUse    EventKind = "tool_use"    // the agent called a tool
	EventToolResult EventKind = "tool_result" // what the tool returned
	EventSummary    EventKind = "summary"     // a summary the agent wrote of the session
	EventCompact    EventKind = "compact"     // the conversation was compacted here
)

// Event is one normalized step of a session, whatever agent produced it.
type Event struct {
	Kind      EventKind      `json:"kind"`
	Role      string         `json:"role,omitempty"`  // user, assistant
	Human     bool           `json:"human,omitempty"` // user text typed by a person
	Text      string         `json:"text,omitempty"`
	Tool      string         `json:"tool,omitempty"` // normalized: Bash, Edit, Write, MultiEdit, TodoWrite, ...
	ToolID    string         `json:"tool_id,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	Output    string         `json:"output,omitempty"`
	IsError   bool           `json:"is_error,omitempty"`
	Exit      *int           `json:"exit,omitempty"` // exit code of a command, when known
	Session   string         `json:"session,omitempty"`
	UUID      string         `json:"uuid,omitempty"` // message id, for provenance
	Line      int            `json:"line,omitempty"` // line in the source file
	Time      time.Time      `json:"time,omitempty"`
	Cwd       string         `json:"cwd,omitempty"`
	Sidechain bool           `json:"sidechain,omitempty"` // a subagent's conversation
}

// Ref names an event for provenance: its message id, else its line.
func (e Event) Ref() string {
	if e.UUID != "" {
		return e.UUID
	}
	if e.Line > 0 {
		return "L" + itoa(e.Line)
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Transcript is a parsed session.
type Transcript struct {
	Format   string   `json:"format"` // claude, codex, journal
	Path     string   `json:"path,omitempty"`
	Session  string   `json:"session"`
	Cwd      string   `json:"cwd,omitempty"`
	Events   []Event  `json:"events"`
	Warnings []string `json:"warnings,omitempty"` // lines skipped, and why
}

// StringInput returns a string field of a tool input.
func (e Event) StringInput(key string) string {
	if e.Input == nil {
		return ""
	}
	s, _ := e.Input[key].(string)
	return s
}

// wrapperPrefixes mark user "messages" that a person did not type: command
// caveats, slash-command echoes, local command output, system reminders.
var wrapperPrefixes = []string{"caveat:", "<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>",
	"<system-reminder>", "<user-prompt-submit-hook>", "<environment_context>", "<user_instructions>", "[request interrupted"}

// isHumanText reports whether user text was typed by a person.
func isHumanText(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return false
	}
	for _, p := range wrapperPrefixes {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// eachLine calls fn with every non-blank line of r and its 1-based
// number, in a buffer large enough for a transcript's biggest lines; a
// read error names the line where reading stopped.
func eachLine(r io.Reader, path string, fn func(n int, line []byte)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			fn(n, l)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: line %d: %w", path, n+1, err)
	}
	return nil
}
