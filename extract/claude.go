package extract

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// maxLine bounds one transcript line; tool outputs can be large, but a
// multi-megabyte line is not a message worth reading.
const maxLine = 16 << 20

// claudeLine is the part of a Claude Code transcript line cairn reads;
// everything else is ignored, so new fields never break parsing.
type claudeLine struct {
	Type          string          `json:"type"`
	Subtype       string          `json:"subtype"`
	UUID          string          `json:"uuid"`
	SessionID     string          `json:"sessionId"`
	Timestamp     string          `json:"timestamp"`
	Cwd           string          `json:"cwd"`
	IsSidechain   bool            `json:"isSidechain"`
	Summary       string          `json:"summary"`
	Message       json.RawMessage `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type claudeMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     map[string]any  `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ParseClaude reads a Claude Code transcript. Unknown line types and
// fields are skipped; lines that are not JSON objects are skipped with a
// warning naming the line. It fails only when the reader does.
func ParseClaude(r io.Reader, path string) (*Transcript, error) {
	t := &Transcript{Format: "claude", Path: path}
	err := eachLine(r, path, func(n int, raw []byte) {
		var l claudeLine
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s:%d: not a JSON object, skipped", path, n))
			return
		}
		if l.SessionID != "" && t.Session == "" {
			t.Session = l.SessionID
		}
		if l.Cwd != "" && t.Cwd == "" {
			t.Cwd = l.Cwd
		}
		base := Event{Session: l.SessionID, UUID: l.UUID, Line: n, Cwd: l.Cwd, Sidechain: l.IsSidechain}
		base.Time, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
		switch l.Type {
		case "user", "assistant":
			evs, warn := claudeMessageEvents(l, base)
			if warn != "" {
				t.Warnings = append(t.Warnings, fmt.Sprintf("%s:%d: %s", path, n, warn))
			}
			t.Events = append(t.Events, evs...)
		case "summary":
			if s := strings.TrimSpace(l.Summary); s != "" {
				e := base
				e.Kind, e.Text = EventSummary, s
				t.Events = append(t.Events, e)
			}
		case "system":
			if l.Subtype == "compact_boundary" {
				e := base
				e.Kind = EventCompact
				t.Events = append(t.Events, e)
			}
		case "":
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s:%d: line without a type, skipped", path, n))
		default:
			// attachment, file-history-snapshot and future types: not ours.
		}
	})
	return t, err
}

func claudeMessageEvents(l claudeLine, base Event) ([]Event, string) {
	var m claudeMessage
	if len(l.Message) == 0 || json.Unmarshal(l.Message, &m) != nil {
		return nil, "message is not an object, skipped"
	}
	role := m.Role
	if role == "" {
		role = l.Type
	}
	base.Role = role
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return nil, ""
		}
		e := base
		e.Kind, e.Text = EventText, s
		e.Human = role == "user" && isHumanText(s)
		return []Event{e}, ""
	}
	var blocks []json.RawMessage
	if json.Unmarshal(m.Content, &blocks) != nil {
		return nil, "content is neither text nor blocks, skipped"
	}
	var out []Event
	for _, raw := range blocks {
		var b claudeBlock
		if json.Unmarshal(raw, &b) != nil {
			continue // a bare string or number among the blocks
		}
		e := base
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			e.Kind, e.Text = EventText, b.Text
			e.Human = role == "user" && isHumanText(b.Text)
		case "tool_use":
			e.Kind, e.Tool, e.ToolID, e.Input = EventToolUse, b.Name, b.ID, b.Input
		case "tool_result":
			e.Kind, e.ToolID, e.IsError = EventToolResult, b.ToolUseID, b.IsError
			e.Output = blockText(b.Content)
			if e.Output == "" {
				e.Output = resultText(l.ToolUseResult)
			}
			e.Exit = exitCode(e.Output, e.IsError, l.ToolUseResult)
		default:
			continue // thinking, images, documents
		}
		out = append(out, e)
	}
	return out, ""
}

// blockText flattens tool_result content: a string or text blocks.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []claudeBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// resultText reads toolUseResult, a string or an object with stdout/stderr.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Stdout string `json:"stdout"`
		Stderr string `json:"stderr"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return strings.TrimSpace(o.Stdout + "\n" + o.Stderr)
	}
	return ""
}

var exitRe = regexp.MustCompile(`(?i)\b(?:exit(?:ed)? (?:code|status)|exit_code)[:= ]+(-?\d+)`)

// exitCode finds a command's exit code: from the structured result when it
// has one, else from "Exit code N" in the output, else 1 for an error.
func exitCode(output string, isError bool, structured json.RawMessage) *int {
	var o struct {
		ExitCode *int `json:"exitCode"`
		Code     *int `json:"exit_code"`
	}
	if json.Unmarshal(structured, &o) == nil {
		if o.ExitCode != nil {
			return o.ExitCode
		}
		if o.Code != nil {
			return o.Code
		}
	}
	if m := exitRe.FindStringSubmatch(output); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return &n
		}
	}
	if isError {
		n := 1
		return &n
	}
	return nil
}
