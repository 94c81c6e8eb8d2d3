package transcript

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
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
	Version   string          `json:"cli_version"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	ExitCode  *int            `json:"exit_code"`
	Message   string          `json:"message"`
	LastAgent string          `json:"last_agent_message"`
	Action    struct {
		Command []string `json:"command"`
	} `json:"action"`
	Item struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	BaseInstructions struct {
		Text string `json:"text"`
	} `json:"base_instructions"`
	Git struct {
		Branch string `json:"branch"`
	} `json:"git"`
}

type codexReader struct {
	s         *Session
	calls     map[string]*Call
	shells    map[string]*Call // exec session id → the call that started it
	questions map[string]map[string]string
	typed     bool  // the rollout records what the person typed (event_msg)
	items     []int // indexes of user model-input turns, in case it does not
	lastAgent string
	line0     int // the line being read, and its time
	time0     time.Time
}

func newCodexReader(path string) *codexReader {
	return &codexReader{s: &Session{Format: "codex", Agent: "codex", Path: path}, calls: map[string]*Call{},
		shells: map[string]*Call{}, questions: map[string]map[string]string{}}
}

func (r *codexReader) session() *Session { return r.s }

func (r *codexReader) line(n int, raw []byte) {
	var l codexLine
	if err := json.Unmarshal(raw, &l); err != nil || len(l.Payload) == 0 {
		r.s.warnf("line %d: not a rollout line, skipped", n)
		return
	}
	var p codexPayload
	if json.Unmarshal(l.Payload, &p) != nil {
		r.s.warnf("line %d: payload is not an object, skipped", n)
		return
	}
	base := Turn{Ref: lineRef(n), Line: n}
	base.Time, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
	r.line0, r.time0 = n, base.Time
	switch l.Type {
	case "session_meta":
		if r.s.ID == "" {
			r.s.ID, r.s.Cwd, r.s.Version, r.s.Branch = p.ID, p.Cwd, p.Version, p.Git.Branch
		}
		if p.BaseInstructions.Text != "" {
			r.s.Instructed = append(r.s.Instructed, p.BaseInstructions.Text)
		}
	case "compacted":
		r.s.Compacted++
	case "response_item":
		r.item(base, p)
	case "event_msg":
		r.event(base, p)
	}
}

func (r *codexReader) item(base Turn, p codexPayload) {
	switch p.Type {
	case "message":
		text := strings.TrimSpace(plainText(codexText(p.Content)))
		if text == "" {
			return
		}
		switch p.Role {
		case "assistant":
			t := base
			t.Speaker, t.Text = Agent, text
			r.s.Turns = append(r.s.Turns, t)
			r.lastAgent = text
		case "user":
			// What the model was given in the user's role: instruction
			// files, the environment, and the prompt again. What the person
			// typed is the user_message event.
			if said, spans := splitInjected(text); said == "" && len(spans) > 0 {
				for _, sp := range spans {
					r.s.inject(base, sp.Source, sp.Text)
					if sp.Source == "instructions" {
						r.s.Instructed = append(r.s.Instructed, sp.Text)
					}
				}
				return
			}
			r.items = append(r.items, len(r.s.Turns))
			r.s.inject(base, "model-input", text)
		default:
			r.s.inject(base, "harness", text)
			r.s.Instructed = append(r.s.Instructed, text)
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		c := r.call(p)
		if c == nil {
			return
		}
		t := base
		t.Speaker, t.Call = Agent, c
		r.s.Turns = append(r.s.Turns, t)
	case "function_call_output", "custom_tool_call_output":
		r.output(p)
	}
}

func (r *codexReader) event(base Turn, p codexPayload) {
	switch p.Type {
	case "user_message":
		r.typed = true
		r.approve(p.Message)
		r.s.person(base, p.Message)
	case "turn_aborted":
		r.s.inject(base, "interrupt", "turn aborted")
	case "task_complete":
		if m := strings.TrimSpace(p.LastAgent); m != "" && m != r.lastAgent {
			t := base
			t.Speaker, t.Text = Agent, m
			r.s.Turns = append(r.s.Turns, t)
			r.lastAgent = m
		}
	case "item_completed":
		// Plan mode's finished plan: the agent's proposal, which the
		// person approves or not in the next turn.
		if p.Item.Type == "Plan" && strings.TrimSpace(p.Item.Text) != "" {
			t := base
			t.Speaker, t.Source, t.Text = Agent, "plan", strings.TrimSpace(p.Item.Text)
			r.s.Turns = append(r.s.Turns, t)
		}
	case "exec_command_end":
		if c := r.calls[p.CallID]; c != nil && p.ExitCode != nil {
			c.Exit = p.ExitCode
			r.reclassify(c)
		}
	}
}

var reApprove = lazyre.New(`(?i)^\W*(?:ok(?:ay)?[,.!]?\s*)?(?:(?:great|good|perfect|looks good|lgtm|sounds good)[,.!]?\s*)?(?:now\s+)?(?:please\s+)?(?:implement|execute|go ahead|do it|approved?|proceed|build|start)\b`)

// approve marks the plan just proposed as approved when the person's
// next words say to carry it out.
func (r *codexReader) approve(msg string) {
	for i := len(r.s.Turns) - 1; i >= 0; i-- {
		t := &r.s.Turns[i]
		if t.Speaker == Person {
			return
		}
		if t.Source == "plan" {
			t.Approved = reApprove.MatchString(strings.TrimSpace(msg))
			return
		}
	}
}

func codexText(raw json.RawMessage) string {
	var blocks []struct {
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

// finish turns the model's user input into the person's words when the
// rollout never recorded what was typed (older Codex versions).
func (r *codexReader) finish() *Session {
	if !r.typed {
		for _, i := range r.items {
			t := r.s.Turns[i]
			r.s.Turns[i].Speaker, r.s.Turns[i].Text = Injected, ""
			sub := &Session{Path: r.s.Path}
			sub.person(Turn{Ref: t.Ref, Line: t.Line, Time: t.Time}, t.Text)
			r.s.Instructed = append(r.s.Instructed, sub.Instructed...)
			if len(sub.Turns) > 0 {
				r.s.Turns[i] = sub.Turns[len(sub.Turns)-1]
			}
		}
	}
	return r.s
}
