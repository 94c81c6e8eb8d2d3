package serve

import (
	"context"

	"github.com/cairnmem/cairn/app"
)

// ErrConflict marks an edit made against a version that is no longer
// current.
var ErrConflict = app.ErrConflict

// RememberInput is a memory an agent or person asks cairn to keep.
type RememberInput struct {
	Kind       string   `json:"kind" jsonschema:"decision, constraint, pattern, case, thread, reminder, event (project) or preference, profile (user)"`
	Title      string   `json:"title" jsonschema:"one line naming the memory, e.g. 'Use bleve for full-text search'"`
	Body       string   `json:"body,omitempty" jsonschema:"markdown: the why, the details, the evidence"`
	Summary    string   `json:"summary,omitempty" jsonschema:"one sentence; default is the body's first sentence"`
	Tags       []string `json:"tags,omitempty"`
	Importance float64  `json:"importance,omitempty" jsonschema:"0 to 1; default per kind"`
	Session    string   `json:"session,omitempty" jsonschema:"your session id, recorded in the commit"`
}

// RememberOutput says what became of a remembered memory.
type RememberOutput = app.RememberOutput

// Remember keeps a memory the way capture does: redacted, checked for
// duplicates and merged or superseded by its kind's policy, committed.
func (s *Service) Remember(ctx context.Context, in RememberInput) (*RememberOutput, error) {
	return s.App.Remember(ctx, app.RememberInput{Kind: in.Kind, Title: in.Title, Body: in.Body, Summary: in.Summary, Tags: in.Tags,
		Importance: in.Importance, Session: in.Session})
}

// SaveInput replaces or creates a memory file from its full text, as an
// editor would.
type SaveInput struct {
	URI     string `json:"uri"`
	Raw     string `json:"raw"`               // frontmatter and body
	Base    string `json:"base,omitempty"`    // the vault commit the edit started from; a newer change is a conflict
	Message string `json:"message,omitempty"` // why, for the commit
	Session string `json:"session,omitempty"`
	Create  bool   `json:"-"`
}

// SaveOutput is the committed result of a save.
type SaveOutput = app.SaveOutput

// Save validates a memory's full text and commits it. An edit based on an
// older version of the file than the current one is refused, so two
// editors never overwrite each other silently.
func (s *Service) Save(ctx context.Context, in SaveInput) (*SaveOutput, error) {
	return s.App.Save(ctx, app.SaveInput{URI: in.URI, Raw: []byte(in.Raw), Base: in.Base, Message: in.Message, Session: in.Session, Create: in.Create})
}
