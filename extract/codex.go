package extract

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// codexLine is one line of a Codex rollout.
type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexPayload struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Cwd       string          `json:"cwd"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	ExitCode  *int            `json:"exit_code"`
}

// ParseCodex reads a Codex CLI rollout (~/.codex/sessions/.../rollout-*.jsonl).
// Shell calls become Bash events, apply_patch calls file edits, update_plan
// a todo list; other items and unknown lines are skipped.
func ParseCodex(r io.Reader, path string) (*Transcript, error) {
	t := &Transcript{Format: "codex", Path: path}
	byCall := map[string]int{} // call id → index of its result event
	err := eachLine(r, path, func(n int, raw []byte) {
		var l codexLine
		if err := json.Unmarshal(raw, &l); err != nil || len(l.Payload) == 0 {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s:%d: not a rollout line, skipped", path, n))
			return
		}
		var p codexPayload
		if json.Unmarshal(l.Payload, &p) != nil {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s:%d: payload is not an object, skipped", path, n))
			return
		}
		base := Event{Session: t.Session, Line: n, Cwd: t.Cwd}
		base.Time, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
		switch {
		case l.Type == "session_meta":
			t.Session, t.Cwd = p.ID, p.Cwd
		case l.Type == "response_item" && p.Type == "message":
			text := codexText(p.Content)
			if strings.TrimSpace(text) == "" || (p.Role != "user" && p.Role != "assistant") {
				return
			}
			e := base
			e.Kind, e.Role, e.Text = EventText, p.Role, text
			e.Human = p.Role == "user" && isHumanText(text)
			t.Events = append(t.Events, e)
		case l.Type == "response_item" && (p.Type == "function_call" || p.Type == "custom_tool_call" || p.Type == "local_shell_call"):
			e := base
			e.Kind, e.Role, e.ToolID = EventToolUse, "assistant", p.CallID
			e.Tool, e.Input = codexTool(p)
			t.Events = append(t.Events, e)
		case l.Type == "response_item" && (p.Type == "function_call_output" || p.Type == "custom_tool_call_output"):
			e := base
			e.Kind, e.Role, e.ToolID = EventToolResult, "user", p.CallID
			e.Output, e.Exit = codexOutput(p.Output)
			e.IsError = e.Exit != nil && *e.Exit != 0
			byCall[p.CallID] = len(t.Events)
			t.Events = append(t.Events, e)
		case l.Type == "event_msg" && p.Type == "exec_command_end" && p.ExitCode != nil:
			// The exit code may come after the output item.
			if i, ok := byCall[p.CallID]; ok {
				t.Events[i].Exit = p.ExitCode
				t.Events[i].IsError = *p.ExitCode != 0
			}
		}
	})
	for i := range t.Events {
		if t.Events[i].Session == "" {
			t.Events[i].Session = t.Session
		}
	}
	if err != nil {
		return t, err
	}
	return t, nil
}

func codexText(raw json.RawMessage) string {
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	var parts []string
	for _, b := range blocks {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

var patchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Update|Add|Delete) File: (.+)$`)

// codexTool maps Codex's tools onto the names the extractors know.
func codexTool(p codexPayload) (string, map[string]any) {
	args := map[string]any{}
	if p.Arguments != "" {
		_ = json.Unmarshal([]byte(p.Arguments), &args)
	}
	switch p.Name {
	case "shell", "container.exec", "local_shell", "exec_command":
		cmd := ""
		switch c := args["command"].(type) {
		case []any:
			var parts []string
			for _, x := range c {
				if s, ok := x.(string); ok {
					parts = append(parts, s)
				}
			}
			// ["bash", "-lc", "go test ./..."] is really the last part.
			if len(parts) == 3 && (parts[1] == "-lc" || parts[1] == "-c") {
				cmd = parts[2]
			} else {
				cmd = strings.Join(parts, " ")
			}
		case string:
			cmd = c
		}
		return "Bash", map[string]any{"command": cmd}
	case "apply_patch":
		patch := p.Input
		if patch == "" {
			patch, _ = args["input"].(string)
		}
		var files []any
		for _, m := range patchFile.FindAllStringSubmatch(patch, -1) {
			files = append(files, strings.TrimSpace(m[1]))
		}
		return "ApplyPatch", map[string]any{"files": files}
	case "update_plan":
		var todos []any
		if plan, ok := args["plan"].([]any); ok {
			for _, s := range plan {
				if m, ok := s.(map[string]any); ok {
					todos = append(todos, map[string]any{"content": m["step"], "status": m["status"]})
				}
			}
		}
		return "TodoWrite", map[string]any{"todos": todos}
	}
	return p.Name, args
}

// codexOutput reads a call's output: a string, possibly JSON holding
// {output, metadata: {exit_code}}.
func codexOutput(raw json.RawMessage) (string, *int) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var o struct {
			Content string `json:"content"`
		}
		_ = json.Unmarshal(raw, &o)
		s = o.Content
	}
	var wrapped struct {
		Output   string `json:"output"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if json.Unmarshal([]byte(s), &wrapped) == nil && (wrapped.Output != "" || wrapped.Metadata.ExitCode != nil) {
		return wrapped.Output, wrapped.Metadata.ExitCode
	}
	return s, exitCode(s, false, nil)
}
