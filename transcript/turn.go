package transcript

import (
	"strconv"
	"time"
)

// Speaker says whose words a turn holds.
type Speaker string

// Speakers.
const (
	// Person is text a human typed (or pasted) in the conversation.
	Person Speaker = "person"
	// Agent is the assistant's own prose.
	Agent Speaker = "agent"
	// Injected is text put in the person's place by the agent, an IDE, a
	// hook, a template or the harness; Turn.Source names which.
	Injected Speaker = "injected"
)

// Form says how a person's turn reads: said in conversation, or material
// pasted in (logs, errors, specs), which states no rule of its own.
type Form string

// Forms of a person's turn.
const (
	Said   Form = "said"
	Pasted Form = "pasted"
)

// Turn is one cleaned step of a conversation: words, or a tool call.
type Turn struct {
	Ref     string    `json:"ref"` // message id, or L<line>: provenance
	Line    int       `json:"line,omitempty"`
	Time    time.Time `json:"time,omitzero"`
	Speaker Speaker   `json:"speaker"`
	// Source names the injector of Injected text (system-reminder, ide,
	// command, template, instructions, compaction, interrupt, ...) and how
	// a person's words arrived when that matters (command-args, bash-mode).
	Source string `json:"source,omitempty"`
	Form   Form   `json:"form,omitempty"`
	Text   string `json:"text,omitempty"`
	Call   *Call  `json:"call,omitempty"`
	// Sidechain marks a subagent's conversation: its words are not the
	// session's, though its tool calls still changed the project.
	Sidechain bool `json:"sidechain,omitempty"`
	// Approved marks a plan (Source "plan") the person approved.
	Approved bool `json:"approved,omitempty"`
	// Prior marks turns copied from an earlier session (a resumed
	// conversation carries its history): context, not this session's work.
	Prior bool `json:"prior,omitempty"`

	session string // the agent's session id on the line, when it has one
}

// IsPerson reports words a person typed in this session's main thread.
func (t Turn) IsPerson() bool {
	return t.Speaker == Person && t.Call == nil && !t.Sidechain && !t.Prior && t.Text != ""
}

// IsAgent reports the agent's own prose in this session's main thread.
func (t Turn) IsAgent() bool {
	return t.Speaker == Agent && t.Call == nil && !t.Sidechain && !t.Prior && t.Text != "" && t.Source == ""
}

// IsPlan reports a plan the agent proposed for approval (plan mode).
func (t Turn) IsPlan() bool {
	return t.Speaker == Agent && t.Source == "plan" && !t.Sidechain && !t.Prior && t.Text != ""
}

// Status says whether a tool call ran and how it ended.
type Status string

// Call statuses.
const (
	// OK: the call ran and succeeded.
	OK Status = "ok"
	// Failed: the call ran and failed (non-zero exit, an error result).
	Failed Status = "failed"
	// NotRun: the call never really ran: rejected by the user, denied by
	// permissions, a hook or a sandbox, interrupted, a malformed tool call,
	// a command that does not exist. It says nothing about the project.
	NotRun Status = "not-run"
	// Unknown: no result was recorded.
	Unknown Status = "unknown"
)

// Call is a tool call paired with its result.
type Call struct {
	ID   string `json:"id,omitempty"`
	Tool string `json:"tool"` // normalized: Bash, Edit, Write, ApplyPatch, Plan, Ask, Read, Grep, Task, ...
	// Command is a shell call's command line as written.
	Command string         `json:"command,omitempty"`
	Input   map[string]any `json:"input,omitempty"`
	// Files are the files the call wrote.
	Files  []string `json:"files,omitempty"`
	Output string   `json:"output,omitempty"` // bounded head and tail
	Exit   *int     `json:"exit,omitempty"`
	Status Status   `json:"status"`
	// Why says why a NotRun call did not run: rejected, denied, blocked,
	// sandbox, interrupted, tool-error, not-found.
	Why     string     `json:"why,omitempty"`
	Plan    []PlanItem `json:"plan,omitempty"`    // TodoWrite, update_plan
	Answers []Answer   `json:"answers,omitempty"` // AskUserQuestion, request_user_input
	// ByPerson marks a command the person ran themselves (Claude Code's
	// ! bash mode).
	ByPerson bool `json:"by_person,omitempty"`
	// Escalated marks a command run outside the agent's sandbox, with the
	// person's approval.
	Escalated bool `json:"escalated,omitempty"`
}

// PlanItem is one step of an agent's plan or todo list.
type PlanItem struct {
	Text   string `json:"text"`
	Status string `json:"status"` // pending, in_progress, completed
}

// Done reports a completed step.
func (p PlanItem) Done() bool { return p.Status == "completed" || p.Status == "done" }

// Answer is a question the agent asked and what the person chose.
type Answer struct {
	Question string `json:"question"`
	Header   string `json:"header,omitempty"`
	Choice   string `json:"choice"`
}

// Session is a cleaned transcript.
type Session struct {
	ID     string `json:"id"`
	Agent  string `json:"agent"`  // claude-code, codex
	Format string `json:"format"` // claude, codex, journal
	Path   string `json:"path,omitempty"`
	Cwd    string `json:"cwd,omitempty"`
	// Title is the session's own title when the agent recorded one: an
	// ai-title or custom-title line, a summary line about this transcript,
	// a Codex thread name. "" when there is none.
	Title      string    `json:"title,omitempty"`
	Start      time.Time `json:"start,omitzero"`
	End        time.Time `json:"end,omitzero"`
	Version    string    `json:"version,omitempty"` // the agent's version
	Branch     string    `json:"branch,omitempty"`  // the project's git branch, as the session last saw it
	Compacted  int       `json:"compacted,omitempty"`
	Turns      []Turn    `json:"turns"`
	Warnings   []string  `json:"warnings,omitempty"`
	Subagent   bool      `json:"subagent,omitempty"` // a subagent's own file
	Replay     bool      `json:"replay,omitempty"`   // a compaction agent replaying another session
	Instructed []string  `json:"-"`                  // lines of instruction files seen injected
}

// Calls lists the session's tool calls in order, subagents' included.
func (s *Session) Calls() []*Call {
	var out []*Call
	for i := range s.Turns {
		if c := s.Turns[i].Call; c != nil && !s.Turns[i].Prior {
			out = append(out, c)
		}
	}
	return out
}

// Said lists what the person said in conversation, in order.
func (s *Session) Said() []Turn {
	var out []Turn
	for _, t := range s.Turns {
		if t.IsPerson() && t.Form != Pasted {
			out = append(out, t)
		}
	}
	return out
}

func lineRef(n int) string { return "L" + strconv.Itoa(n) }
