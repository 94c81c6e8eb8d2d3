package transcript

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// How Codex's tool calls map onto cairn's: shells, patches, plans,
// questions, and the outputs that say how they ended.

var reRunning = lazyre.New(`(?m)^Process running with session ID (\d+)`)

var rePatchFile = lazyre.New(`(?m)^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$`)

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
		// Kept as the function form keeps it: what a file was written as
		// is read later (a task list's checked boxes).
		c.Input["input"] = patch
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
