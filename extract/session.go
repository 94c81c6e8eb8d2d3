package extract

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Call is a tool use paired with its result.
type Call struct {
	Use    Event
	Result *Event
}

// Name is the tool's name.
func (c Call) Name() string { return c.Use.Tool }

// Command is a shell call's command line, or "".
func (c Call) Command() string {
	if c.Use.Tool != "Bash" {
		return ""
	}
	return strings.TrimSpace(c.Use.StringInput("command"))
}

// Exit is the call's exit code: known, 1 for an error result, else 0 for
// a result, or -1 when no result was seen.
func (c Call) Exit() int {
	if c.Result == nil {
		return -1
	}
	if c.Result.Exit != nil {
		return *c.Result.Exit
	}
	if c.Result.IsError {
		return 1
	}
	return 0
}

// Failed reports a call that returned an error.
func (c Call) Failed() bool { return c.Result != nil && c.Exit() != 0 }

// editTools write files; their inputs name the files.
var editTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "ApplyPatch": true, "str_replace_based_edit_tool": true}

// Files lists the files a call wrote.
func (c Call) Files() []string {
	if !editTools[c.Use.Tool] {
		return nil
	}
	var out []string
	for _, k := range []string{"file_path", "path", "notebook_path"} {
		if p := c.Use.StringInput(k); p != "" {
			out = append(out, p)
		}
	}
	if fs, ok := c.Use.Input["files"].([]any); ok {
		for _, f := range fs {
			if s, ok := f.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// Session is a transcript assembled for extraction.
type Session struct {
	ID         string
	Agent      string // claude-code, codex
	Transcript string
	Cwd        string
	Events     []Event
	Calls      []Call
	Start, End time.Time
}

// Assemble pairs tool uses with their results and orders the session.
func Assemble(t *Transcript, agent string) *Session {
	s := &Session{ID: t.Session, Agent: agent, Transcript: t.Path, Cwd: t.Cwd}
	results := map[string]*Event{}
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind == EventToolResult && e.ToolID != "" {
			results[e.ToolID] = e
		}
	}
	for _, e := range t.Events {
		if !e.Time.IsZero() {
			if s.Start.IsZero() || e.Time.Before(s.Start) {
				s.Start = e.Time
			}
			if e.Time.After(s.End) {
				s.End = e.Time
			}
		}
		s.Events = append(s.Events, e)
		if e.Kind == EventToolUse {
			s.Calls = append(s.Calls, Call{Use: e, Result: results[e.ToolID]})
		}
	}
	return s
}

// Prompts are the texts a person typed, in order, outside subagents.
func (s *Session) Prompts() []Event {
	var out []Event
	for _, e := range s.Events {
		if e.Kind == EventText && e.Human && !e.Sidechain {
			out = append(out, e)
		}
	}
	return out
}

// Replies are the agent's texts, in order, outside subagents.
func (s *Session) Replies() []Event {
	var out []Event
	for _, e := range s.Events {
		if e.Kind == EventText && e.Role == "assistant" && !e.Sidechain {
			out = append(out, e)
		}
	}
	return out
}

// FilesTouched lists the files the session wrote, relative to its working
// directory when inside it, sorted.
func (s *Session) FilesTouched() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Calls {
		for _, f := range c.Files() {
			f = s.rel(f)
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (s *Session) rel(p string) string {
	if s.Cwd != "" && filepath.IsAbs(p) {
		if r, err := filepath.Rel(s.Cwd, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return p
}

var testCommand = regexp.MustCompile(`(?:^|[\s;&|(])(?:go test|gotestsum|pytest|python -m pytest|npm (?:run )?test|yarn test|pnpm test|cargo test|cargo nextest|make (?:test|check)|mvn test|gradle test|jest|vitest|rspec|bundle exec rspec|mix test|ctest|tox|deno test|bun test)\b`)

// IsTest reports whether a command runs tests.
func IsTest(cmd string) bool { return testCommand.MatchString(cmd) }

// sentences splits text into sentences, one per line of prose, ignoring
// code blocks and quoted output.
func sentences(text string) []string {
	var out []string
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inCode = !inCode
			continue
		}
		if inCode || t == "" || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "    ") {
			continue
		}
		t = strings.TrimLeft(t, "-*•0123456789.) ")
		for _, s := range splitSentences(t) {
			if s = strings.TrimSpace(s); len(s) >= 8 {
				out = append(out, s)
			}
		}
	}
	return out
}

func splitSentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(t) || t[i+1] == ' ') {
			// "e.g." and "v1.2" are not ends; one short word before the dot
			// suggests an abbreviation.
			if c == '.' && i >= 2 && (t[i-2] == '.' || t[i-2] == ' ' && i-2 < start+2) {
				continue
			}
			out = append(out, t[start:i+1])
			start = i + 1
		}
	}
	if start < len(t) {
		out = append(out, t[start:])
	}
	return out
}
