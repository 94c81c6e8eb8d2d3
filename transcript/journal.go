package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// JournalEntry is one hook event, redacted, as cairn's journal stores it
// (.memory/.journal/<session>.jsonl).
type JournalEntry struct {
	Time       time.Time      `json:"time"`
	Event      string         `json:"event"` // session-start, user-prompt, post-tool, pre-compact, stop, session-end
	Agent      string         `json:"agent"`
	Session    string         `json:"session"`
	Cwd        string         `json:"cwd,omitempty"`
	Transcript string         `json:"transcript,omitempty"`
	Redaction  string         `json:"redaction"`
	Data       map[string]any `json:"data,omitempty"`
}

type journalReader struct {
	s *Session
}

func newJournalReader(path string) *journalReader {
	return &journalReader{s: &Session{Format: "journal", Agent: "claude-code", Path: path}}
}

func (r *journalReader) session() *Session { return r.s }
func (r *journalReader) finish() *Session  { return r.s }

func (r *journalReader) line(n int, raw []byte) {
	var e JournalEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		r.s.warnf("line %d: not a journal entry, skipped", n)
		return
	}
	if r.s.ID == "" {
		r.s.ID, r.s.Cwd = e.Session, e.Cwd
		if e.Agent != "" {
			r.s.Agent = e.Agent
		}
	}
	base := Turn{Ref: lineRef(n), Line: n, Time: e.Time}
	switch e.Event {
	case "user-prompt":
		if p := str(e.Data, "prompt"); strings.TrimSpace(p) != "" {
			r.s.person(base, p)
		}
	case "post-tool":
		c := &Call{ID: str(e.Data, "tool_use_id"), Tool: str(e.Data, "tool_name"), Status: Unknown}
		c.Input, _ = e.Data["tool_input"].(map[string]any)
		if c.ID == "" {
			c.ID = fmt.Sprintf("journal-%d", n)
		}
		fillCall(c)
		out, isErr, exit := toolResponse(e.Data["tool_response"])
		c.Output, c.Exit = bound(out), exit
		classify(c, isErr)
		if c.Status != OK {
			c.Files = nil
		}
		t := base
		t.Speaker, t.Call = Agent, c
		r.s.Turns = append(r.s.Turns, t)
	case "stop":
		if m := strings.TrimSpace(str(e.Data, "last_assistant_message")); m != "" {
			t := base
			t.Speaker, t.Text = Agent, m
			r.s.Turns = append(r.s.Turns, t)
		}
	}
}

// fillCall reads what a hook's tool_input says of a call: the command, the
// files, the plan — the same as a transcript's tool_use.
func fillCall(c *Call) {
	in := c.Input
	switch c.Tool {
	case "Bash":
		c.Command = strings.TrimSpace(str(in, "command"))
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		for _, k := range []string{"file_path", "notebook_path", "path"} {
			if p := str(in, k); p != "" {
				c.Files = append(c.Files, p)
			}
		}
	case "TodoWrite":
		c.Tool = "Plan"
		items, _ := in["todos"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if t := strings.TrimSpace(str(m, "content")); t != "" {
					c.Plan = append(c.Plan, PlanItem{Text: t, Status: str(m, "status")})
				}
			}
		}
	case "apply_patch":
		c.Tool, c.Files = "ApplyPatch", patchFiles(str(in, "input")+str(in, "patch"))
	case "AskUserQuestion":
		c.Tool = "Ask"
	}
}

// toolResponse reads PostToolUse's tool_response: a string, or an object
// with stdout/stderr/output/content and an error or exit code.
func toolResponse(v any) (string, bool, *int) {
	switch t := v.(type) {
	case string:
		return t, false, nil
	case map[string]any:
		var parts []string
		for _, k := range []string{"stdout", "stderr", "output", "content", "error"} {
			if s, ok := t[k].(string); ok && s != "" {
				parts = append(parts, s)
			}
		}
		out := strings.Join(parts, "\n")
		isErr := false
		for _, k := range []string{"is_error", "interrupted"} {
			if b, ok := t[k].(bool); ok && b {
				isErr = true
			}
		}
		if b, ok := t["success"].(bool); ok && !b {
			isErr = true
		}
		for _, k := range []string{"exit_code", "exitCode", "returnCode"} {
			if f, ok := t[k].(float64); ok {
				n := int(f)
				return out, isErr || n != 0, &n
			}
		}
		return out, isErr, nil
	}
	return "", false, nil
}
