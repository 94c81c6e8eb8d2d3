package schema

import (
	"strings"
	"time"
)

// Source is the provenance of a memory: where it was learned.
type Source struct {
	Agent      string   `yaml:"agent,omitempty" json:"agent,omitempty"` // claude-code, codex, cli, mcp, import
	Session    string   `yaml:"session,omitempty" json:"session,omitempty"`
	Transcript string   `yaml:"transcript,omitempty" json:"transcript,omitempty"`
	Turns      []string `yaml:"turns,omitempty" json:"turns,omitempty"` // message uuids or line numbers
	Tools      []string `yaml:"tools,omitempty" json:"tools,omitempty"` // tool_use ids
	Extractor  string   `yaml:"extractor,omitempty" json:"extractor,omitempty"`
	Version    string   `yaml:"version,omitempty" json:"version,omitempty"` // extractor version
	Rule       string   `yaml:"rule,omitempty" json:"rule,omitempty"`       // what in the session was the evidence
	CodeCommit string   `yaml:"code_commit,omitempty" json:"code_commit,omitempty"`
}

func (s *Source) empty() bool {
	return s == nil || (s.Agent == "" && s.Session == "" && s.Transcript == "" && len(s.Turns) == 0 &&
		len(s.Tools) == 0 && s.Extractor == "" && s.Version == "" && s.Rule == "" && s.CodeCommit == "")
}

// Memory is one memory document: frontmatter fields and a markdown body.
//
// A Memory parsed from a file remembers that file's text, and Marshal
// rewrites only the lines of fields whose values changed.
type Memory struct {
	URI URI `json:"uri"` // where the memory lives; not stored in the file

	Kind         Kind      `json:"kind"`
	Title        string    `json:"title"`
	Summary      string    `json:"summary,omitempty"`
	Tags         []string  `json:"tags,omitempty"`
	Importance   *float64  `json:"importance,omitempty"`
	Confidence   *float64  `json:"confidence,omitempty"`
	Pinned       bool      `json:"pinned,omitempty"`
	Status       Status    `json:"status,omitempty"`
	Gate         string    `json:"gate,omitempty"`
	Triggers     []string  `json:"triggers,omitempty"`
	Links        []string  `json:"links,omitempty"`
	Supersedes   []string  `json:"supersedes,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Source       *Source   `json:"source,omitempty"`
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
	// Reviewed is when a person kept a captured memory (cairn review).
	Reviewed time.Time `json:"reviewed,omitzero"`
	Body     string    `json:"body,omitempty"`

	doc *document
}

// Captured reports a memory capture wrote from an agent session (as
// opposed to one a person wrote or imported).
func (m *Memory) Captured() bool { return m.Source != nil && m.Source.Extractor != "" }

// NeedsReview reports a captured memory no person has kept yet.
func (m *Memory) NeedsReview() bool { return m.Captured() && m.Reviewed.IsZero() }

// New returns a fresh memory of kind k with defaults filled in.
func New(k Kind, title string, now time.Time) *Memory {
	now = Timestamp(now)
	return &Memory{Kind: k, Title: strings.TrimSpace(title), Status: DefaultStatus(k), Created: now, Updated: now}
}

// Timestamp normalizes a time for storage: UTC, whole seconds.
func Timestamp(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// Clone returns a deep copy that shares the parsed file, so a changed clone
// still marshals as a minimal edit of that file.
func (m *Memory) Clone() *Memory {
	c := *m
	c.Tags = cloneStrings(m.Tags)
	c.Triggers = cloneStrings(m.Triggers)
	c.Links = cloneStrings(m.Links)
	c.Supersedes = cloneStrings(m.Supersedes)
	if m.Importance != nil {
		v := *m.Importance
		c.Importance = &v
	}
	if m.Confidence != nil {
		v := *m.Confidence
		c.Confidence = &v
	}
	if m.Source != nil {
		s := *m.Source
		s.Turns = cloneStrings(s.Turns)
		s.Tools = cloneStrings(s.Tools)
		c.Source = &s
	}
	return &c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}

// EffectiveImportance is the file's importance or the kind's default.
func (m *Memory) EffectiveImportance() float64 {
	if m.Importance != nil {
		return *m.Importance
	}
	if info, ok := m.Kind.Info(); ok {
		return info.Importance
	}
	return 0.5
}

// EffectiveStatus is the file's status or the kind's default.
func (m *Memory) EffectiveStatus() Status {
	if m.Status == "" {
		return DefaultStatus(m.Kind)
	}
	return m.Status
}

// HasTag reports whether the memory carries tag (case-insensitive).
func (m *Memory) HasTag(tag string) bool {
	for _, t := range m.Tags {
		if strings.EqualFold(t, tag) {
			return true
		}
	}
	return false
}

// FieldLine returns the file line of a frontmatter field, or 0 when the
// memory was not parsed from a file or lacks the field.
func (m *Memory) FieldLine(field string) int {
	if m.doc == nil {
		return 0
	}
	for _, k := range m.doc.keys {
		if k.key == field {
			return m.doc.lineOffset + k.start + 1
		}
	}
	return 0
}

// Raw returns the bytes the memory was parsed from, or nil for a new memory.
func (m *Memory) Raw() []byte {
	if m.doc == nil {
		return nil
	}
	return []byte(m.doc.raw)
}
