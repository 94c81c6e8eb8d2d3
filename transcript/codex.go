package transcript

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
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
		text := strings.TrimSpace(codexText(p.Content))
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

var reApprove = regexp.MustCompile(`(?i)^\W*(?:ok(?:ay)?[,.!]?\s*)?(?:(?:great|good|perfect|looks good|lgtm|sounds good)[,.!]?\s*)?(?:now\s+)?(?:please\s+)?(?:implement|execute|go ahead|do it|approved?|proceed|build|start)\b`)

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

var rePatchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$`)

// patchFiles lists the files an apply_patch body writes.
func patchFiles(patch string) []string {
	var out []string
	for _, m := range rePatchFile.FindAllStringSubmatch(patch, -1) {
		f := strings.TrimSpace(m[1] + m[2])
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// call maps Codex's tools onto the names cairn knows.
func (r *codexReader) call(p codexPayload) *Call {
	args := map[string]any{}
	if p.Arguments != "" {
		_ = json.Unmarshal([]byte(p.Arguments), &args)
	}
	c := &Call{ID: p.CallID, Tool: p.Name, Input: args, Status: Unknown}
	switch p.Name {
	case "shell", "container.exec", "local_shell", "exec_command", "shell_command", "":
		cmd := commandOf(args)
		if p.Type == "local_shell_call" {
			cmd = unwrapShell(p.Action.Command)
		}
		if cmd == "" {
			return nil
		}
		c.Tool, c.Command = "Bash", cmd
		c.Escalated = args["with_escalated_permissions"] == true || str(args, "sandbox_permissions") == "require_escalated"
		if strings.HasPrefix(cmd, "apply_patch") || strings.Contains(cmd, "*** Begin Patch") {
			c.Tool, c.Files = "ApplyPatch", patchFiles(cmd)
		}
	case "apply_patch":
		patch := p.Input
		if patch == "" {
			patch = str(args, "input")
		}
		c.Tool, c.Files = "ApplyPatch", patchFiles(patch)
	case "update_plan":
		c.Tool = "Plan"
		if plan, ok := args["plan"].([]any); ok {
			for _, s := range plan {
				if m, ok := s.(map[string]any); ok {
					if t := strings.TrimSpace(str(m, "step")); t != "" {
						c.Plan = append(c.Plan, PlanItem{Text: t, Status: str(m, "status")})
					}
				}
			}
		}
	case "request_user_input":
		c.Tool = "Ask"
		qs := map[string]string{}
		if list, ok := args["questions"].([]any); ok {
			for _, q := range list {
				if m, ok := q.(map[string]any); ok {
					qs[str(m, "id")] = strings.TrimSpace(str(m, "header") + ": " + str(m, "question"))
				}
			}
		}
		r.questions[p.CallID] = qs
	case "write_stdin":
		// More input to, or a wait on, a command already running: its
		// output belongs to that command.
		r.calls[p.CallID] = r.shells[sessionKey(args)]
		return nil
	}
	r.calls[p.CallID] = c
	return c
}

func sessionKey(args map[string]any) string {
	switch v := args["session_id"].(type) {
	case float64:
		return strings.TrimSuffix(strings.TrimRight(strings.TrimRight(jsonNumber(v), "0"), "."), ".")
	case string:
		return v
	}
	return ""
}

func jsonNumber(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// commandOf reads a shell call's command: a list (["bash", "-lc", "go
// test"]) or a string (cmd, command).
func commandOf(args map[string]any) string {
	switch c := args["command"].(type) {
	case []any:
		var parts []string
		for _, x := range c {
			if s, ok := x.(string); ok {
				parts = append(parts, s)
			}
		}
		return unwrapShell(parts)
	case string:
		return strings.TrimSpace(c)
	}
	return strings.TrimSpace(str(args, "cmd"))
}

func unwrapShell(parts []string) string {
	if len(parts) == 3 && (parts[1] == "-lc" || parts[1] == "-c") {
		return strings.TrimSpace(parts[2])
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

var reRunning = regexp.MustCompile(`(?m)^Process running with session ID (\d+)`)

func (r *codexReader) output(p codexPayload) {
	c := r.calls[p.CallID]
	if c == nil {
		return
	}
	text, exit := codexOutput(p.Output)
	if qs, ok := r.questions[p.CallID]; ok {
		var notes []string
		c.Answers, notes = codexAnswers(text, qs)
		for _, n := range notes {
			// A note typed in the answer form is the person's own words.
			r.s.person(Turn{Ref: lineRef(r.line0) + "-note", Line: r.line0, Time: r.time0}, n)
		}
	}
	if m := reRunning.FindStringSubmatch(text); m != nil {
		r.shells[m[1]] = c // the command goes on; write_stdin reads the rest
	}
	if c.Output == "" || c.Exit == nil {
		c.Output = bound(strings.TrimSpace(c.Output + "\n" + text))
	}
	if exit != nil {
		c.Exit = exit
	}
	r.reclassify(c)
}

func (r *codexReader) reclassify(c *Call) {
	if reRunning.MatchString(c.Output) && c.Exit == nil && !reExitCode.MatchString(c.Output) {
		c.Status = Unknown
		return
	}
	files := c.Files
	classify(c, false)
	if c.Status == OK {
		c.Files = files
	} else {
		c.Files = nil
	}
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
	return s, nil
}

// codexAnswers reads request_user_input's answers: for each question id,
// the options chosen, and the notes the person wrote.
func codexAnswers(text string, questions map[string]string) ([]Answer, []string) {
	var o struct {
		Answers map[string]struct {
			Answers []string `json:"answers"`
		} `json:"answers"`
	}
	if json.Unmarshal([]byte(text), &o) != nil {
		return nil, nil
	}
	var out []Answer
	var notes []string
	for _, id := range slices.Sorted(maps.Keys(o.Answers)) {
		a := o.Answers[id]
		var choice []string
		for _, x := range a.Answers {
			if n, ok := strings.CutPrefix(x, "user_note:"); ok {
				notes = append(notes, strings.TrimSpace(n))
				continue
			}
			choice = append(choice, strings.TrimSpace(x))
		}
		q := questions[id]
		if q == "" {
			q = id
		}
		out = append(out, Answer{Question: q, Header: id, Choice: strings.Join(choice, "; ")})
	}
	return out, notes
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
