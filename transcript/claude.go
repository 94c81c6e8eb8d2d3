package transcript

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// claudeLine is the part of a Claude Code transcript line cairn reads;
// every other field and line type is ignored, so new ones never break it.
type claudeLine struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	SessionID        string          `json:"sessionId"`
	Timestamp        string          `json:"timestamp"`
	Cwd              string          `json:"cwd"`
	Version          string          `json:"version"`
	GitBranch        string          `json:"gitBranch"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	AgentID          string          `json:"agentId"`
	Summary          string          `json:"summary"`
	LeafUUID         string          `json:"leafUuid"`
	AITitle          string          `json:"aiTitle"`
	CustomTitle      string          `json:"customTitle"`
	Message          json.RawMessage `json:"message"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
	Attachment       json.RawMessage `json:"attachment"`
	Data             json.RawMessage `json:"data"`
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

// claudeReader turns lines into turns; tool results find their calls by id.
type claudeReader struct {
	s        *Session
	calls    map[string]*Call
	ids      map[string]int // session id → lines seen
	firstID  string
	uuids    map[string]bool
	summary  []claudeLine // summary lines, resolved once every uuid is known
	aiTitle  string
	custom   string
	fileStem string
	now      time.Time // the time and number of the line being read
	lineNo   int
}

func newClaudeReader(path string) *claudeReader {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s := &Session{Format: "claude", Agent: "claude-code", Path: path}
	base := filepath.Base(path)
	s.Subagent = strings.HasPrefix(base, "agent-") && !strings.HasPrefix(base, "agent-acompact")
	s.Replay = strings.HasPrefix(base, "agent-acompact")
	return &claudeReader{s: s, calls: map[string]*Call{}, ids: map[string]int{}, uuids: map[string]bool{}, fileStem: stem}
}

func (r *claudeReader) line(n int, raw []byte) {
	var l claudeLine
	if err := json.Unmarshal(raw, &l); err != nil {
		r.s.warnf("line %d: not a JSON object, skipped", n)
		return
	}
	if l.UUID != "" {
		r.uuids[l.UUID] = true
	}
	if l.SessionID != "" {
		r.ids[l.SessionID]++
		if r.firstID == "" && (l.Type == "user" || l.Type == "assistant") {
			r.firstID = l.SessionID
		}
	}
	if l.Cwd != "" && r.s.Cwd == "" {
		r.s.Cwd = l.Cwd
	}
	if l.Version != "" {
		r.s.Version = l.Version
	}
	if l.GitBranch != "" && l.Type != "summary" {
		r.s.Branch = l.GitBranch
	}
	switch l.Type {
	case "user", "assistant":
		// A compaction agent's replay is the conversation itself, though
		// every line of it is marked as a sidechain.
		r.message(n, l, (l.IsSidechain || r.s.Subagent) && !r.s.Replay)
	case "progress":
		r.progress(n, l)
	case "summary":
		r.summary = append(r.summary, l)
	case "ai-title":
		if t := strings.TrimSpace(l.AITitle); t != "" {
			r.aiTitle = t
		}
	case "custom-title":
		if t := strings.TrimSpace(l.CustomTitle); t != "" {
			r.custom = t
		}
	case "system":
		if l.Subtype == "compact_boundary" {
			r.s.Compacted++
		}
	case "attachment":
		r.attachment(l)
	case "":
		r.s.warnf("line %d: line without a type, skipped", n)
	}
}

// progress lines of Claude Code 2.x carry a subagent's messages as they
// happen; their tool calls changed the project like any other.
func (r *claudeReader) progress(n int, l claudeLine) {
	var d struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(l.Data, &d) != nil || d.Type != "agent_progress" || len(d.Message) == 0 {
		return
	}
	var inner claudeLine
	if json.Unmarshal(d.Message, &inner) != nil || (inner.Type != "user" && inner.Type != "assistant") {
		return
	}
	if inner.Timestamp == "" {
		inner.Timestamp = l.Timestamp
	}
	inner.SessionID = l.SessionID
	r.message(n, inner, true)
}

// attachment lines hold the instruction files the agent loaded (CLAUDE.md,
// skills): what they say is already in front of the agent every session.
func (r *claudeReader) attachment(l claudeLine) {
	var a struct {
		Type    string `json:"type"`
		Content struct {
			Content string `json:"content"`
		} `json:"content"`
		Skills []struct {
			Content string `json:"content"`
		} `json:"skills"`
	}
	if json.Unmarshal(l.Attachment, &a) != nil {
		return
	}
	switch a.Type {
	case "nested_memory":
		r.s.Instructed = append(r.s.Instructed, a.Content.Content)
	case "invoked_skills":
		for _, sk := range a.Skills {
			r.s.Instructed = append(r.s.Instructed, sk.Content)
		}
	}
}

func (r *claudeReader) message(n int, l claudeLine, sidechain bool) {
	var m claudeMessage
	if len(l.Message) == 0 || json.Unmarshal(l.Message, &m) != nil {
		r.s.warnf("line %d: message is not an object, skipped", n)
		return
	}
	base := Turn{Ref: l.UUID, Line: n, Sidechain: sidechain, session: l.SessionID}
	if base.Ref == "" {
		base.Ref = lineRef(n)
	}
	base.Time, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
	r.now, r.lineNo = base.Time, n
	role := m.Role
	if role == "" {
		role = l.Type
	}
	// An array never decodes as a string: skip that try, which would scan
	// every tool output twice.
	var str string
	if content := bytes.TrimLeft(m.Content, " \t\r\n"); (len(content) == 0 || content[0] != '[') && json.Unmarshal(m.Content, &str) == nil {
		r.text(base, role, l, str)
		return
	}
	var blocks []json.RawMessage
	if json.Unmarshal(m.Content, &blocks) != nil {
		r.s.warnf("line %d: content is neither text nor blocks, skipped", n)
		return
	}
	for _, raw := range blocks {
		var b claudeBlock
		if json.Unmarshal(raw, &b) != nil {
			continue // a bare string or number among the blocks
		}
		switch b.Type {
		case "text":
			r.text(base, role, l, b.Text)
		case "tool_use":
			c := claudeCall(b)
			r.calls[b.ID] = c
			t := base
			t.Speaker, t.Call = Agent, c
			r.s.Turns = append(r.s.Turns, t)
		case "tool_result":
			r.result(b, l.ToolUseResult)
		}
	}
}

// text files a piece of text under its speaker: the agent's prose, or
// what the person typed with the injected parts taken out.
func (r *claudeReader) text(base Turn, role string, l claudeLine, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if role == "assistant" {
		t := base
		t.Speaker, t.Text = Agent, strings.TrimSpace(plainText(text))
		r.s.Turns = append(r.s.Turns, t)
		return
	}
	switch {
	case l.IsCompactSummary:
		r.s.inject(base, "compaction", text)
		return
	case l.IsMeta:
		// Expanded skills and slash-command templates, image notes,
		// "continue from where you left off": the harness wrote them.
		source := "template"
		if _, spans := splitInjected(text); len(spans) > 0 {
			source = spans[0].Source
		}
		r.s.inject(base, source, text)
		r.s.Instructed = append(r.s.Instructed, text)
		return
	}
	r.s.person(base, text)
}

var reAnswered = lazyre.New(`"([^"]+)"="([^"]*)"`)

func claudeCall(b claudeBlock) *Call {
	c := &Call{ID: b.ID, Tool: b.Name, Input: b.Input, Status: Unknown}
	fillCall(c)
	return c
}

func (r *claudeReader) result(b claudeBlock, structured json.RawMessage) {
	c := r.calls[b.ToolUseID]
	if c == nil {
		return // the call is in a part of the file we did not see
	}
	c.Output = bound(blockText(b.Content))
	var o struct {
		ExitCode    *int              `json:"exitCode"`
		Interrupted bool              `json:"interrupted"`
		Stdout      string            `json:"stdout"`
		Stderr      string            `json:"stderr"`
		Answers     map[string]string `json:"answers"`
	}
	if json.Unmarshal(structured, &o) == nil {
		c.Exit = o.ExitCode
		if c.Output == "" {
			c.Output = bound(strings.TrimSpace(o.Stdout + "\n" + o.Stderr))
		}
	}
	classify(c, b.IsError)
	if o.Interrupted && c.Status != NotRun {
		c.Status, c.Why = NotRun, "interrupted"
	}
	if c.Status != OK {
		c.Files = nil // an edit that failed changed nothing
	}
	switch c.Tool {
	case "Ask":
		for q, a := range o.Answers {
			c.Answers = append(c.Answers, Answer{Question: q, Choice: a})
		}
		if len(c.Answers) == 0 {
			for _, m := range reAnswered.FindAllStringSubmatch(c.Output, -1) {
				c.Answers = append(c.Answers, Answer{Question: m[1], Choice: m[2]})
			}
		}
	case "ExitPlanMode":
		if plan := strings.TrimSpace(str(c.Input, "plan")); plan != "" {
			approved := c.Status == OK && strings.Contains(c.Output, "approved your plan")
			r.s.Turns = append(r.s.Turns, Turn{Ref: c.ID, Line: r.lineNo, Speaker: Agent, Source: "plan", Text: plan, Approved: approved, Time: r.now})
		}
	}
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

// finish settles what needs the whole file: the session's id (the file's
// own when it names one), turns copied from an earlier session, the title.
func (r *claudeReader) finish() *Session {
	s := r.s
	// The file's own id when its name is one; else the id most lines carry
	// (a resumed conversation copies a few lines of the earlier one).
	s.ID = r.firstID
	for id, n := range r.ids {
		if n > r.ids[s.ID] || n == r.ids[s.ID] && id < s.ID {
			s.ID = id
		}
	}
	if _, ok := r.ids[r.fileStem]; ok {
		s.ID = r.fileStem
	}
	s.markPrior()
	s.Title = r.custom
	if s.Title == "" {
		s.Title = r.aiTitle
	}
	if s.Title == "" {
		// A summary line names the conversation its leaf belongs to; a
		// leaf this file does not hold is another session's.
		for _, l := range r.summary {
			if r.uuids[l.LeafUUID] && strings.TrimSpace(l.Summary) != "" {
				s.Title = strings.TrimSpace(l.Summary)
			}
		}
	}
	return s
}
