package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// maxPayload bounds what a hook reads from stdin: a tool response can hold
// a whole file, but not more than this.
const maxPayload = 32 << 20

// Payload is the union of the fields agents send to hooks.
type Payload struct {
	SessionID      string         `json:"session_id"`
	TranscriptPath string         `json:"transcript_path"`
	Cwd            string         `json:"cwd"`
	HookEventName  string         `json:"hook_event_name"`
	Source         string         `json:"source"`      // SessionStart: startup, resume, clear, compact
	Prompt         string         `json:"prompt"`      // UserPromptSubmit
	ToolName       string         `json:"tool_name"`   // PostToolUse
	ToolInput      map[string]any `json:"tool_input"`  // PostToolUse
	ToolUseID      string         `json:"tool_use_id"` // PostToolUse
	ToolResponse   any            `json:"tool_response"`
	DurationMS     float64        `json:"duration_ms"`
	Trigger        string         `json:"trigger"` // PreCompact: manual, auto
	StopActive     bool           `json:"stop_hook_active"`
	LastAssistant  string         `json:"last_assistant_message"` // Stop
	Reason         string         `json:"reason"`                 // SessionEnd
}

// ReadPayload decodes a hook's stdin. Empty input is an error, like any
// input that is not a JSON object.
func ReadPayload(r io.Reader) (*Payload, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(data) > maxPayload {
		return nil, fmt.Errorf("payload larger than %d bytes", maxPayload)
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, fmt.Errorf("empty payload on stdin")
	}
	var p Payload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("payload is not the JSON object a hook gets: %w", err)
	}
	return &p, nil
}

// data is the subset of the payload the journal keeps for an event.
func (p *Payload) data(event string) map[string]any {
	switch event {
	case "session-start":
		return map[string]any{"source": p.Source}
	case "user-prompt":
		return map[string]any{"prompt": p.Prompt}
	case "post-tool":
		return map[string]any{"tool_name": p.ToolName, "tool_input": p.ToolInput, "tool_use_id": p.ToolUseID, "tool_response": p.ToolResponse, "duration_ms": p.DurationMS}
	case "pre-compact":
		return map[string]any{"trigger": p.Trigger}
	case "stop":
		return map[string]any{"last_assistant_message": p.LastAssistant}
	case "session-end":
		return map[string]any{"reason": p.Reason}
	}
	return map[string]any{}
}

// Output is what context-injecting hooks print.
type Output struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// MaxContext is the most additionalContext an agent takes in full.
const MaxContext = 10000

// eventNames maps cairn's event names to the agents'.
var eventNames = map[string]string{
	"session-start": "SessionStart", "user-prompt": "UserPromptSubmit", "post-tool": "PostToolUse",
	"pre-compact": "PreCompact", "stop": "Stop", "session-end": "SessionEnd",
}

// Events lists the hook events cairn handles, in install order.
var Events = []string{"session-start", "user-prompt", "post-tool", "pre-compact", "stop", "session-end"}

// fit keeps context under MaxContext, cutting at a line boundary.
func fit(s string) string {
	if len(s) <= MaxContext {
		return s
	}
	cut := strings.LastIndexByte(s[:MaxContext-40], '\n')
	if cut < 0 {
		cut = MaxContext - 40
	}
	return s[:cut] + "\n(cut to fit the hook limit)\n"
}
