package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ErrConflict marks an edit made against a version that is no longer
// current.
var ErrConflict = errors.New("conflict")

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
type RememberOutput struct {
	Op       string   `json:"op"` // create, merge, supersede, close, skip
	URI      string   `json:"uri,omitempty"`
	Target   string   `json:"target,omitempty"` // the existing memory involved
	Reason   string   `json:"reason"`
	Commit   string   `json:"commit,omitempty"`
	Redacted []string `json:"redacted,omitempty"` // rules that removed secrets
}

// Remember keeps a memory the way capture does: redacted, checked for
// duplicates and merged or superseded by its kind's policy, committed.
func (s *Service) Remember(ctx context.Context, in RememberInput) (*RememberOutput, error) {
	kind, err := schema.ParseKind(in.Kind)
	if err != nil {
		return nil, fmt.Errorf("%w: kind: %v", ErrBadRequest, err)
	}
	title := strings.TrimSpace(in.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") || len(title) > 200 {
		return nil, fmt.Errorf("%w: title must be one line of 1 to 200 characters", ErrBadRequest)
	}
	if in.Importance < 0 || in.Importance > 1 {
		return nil, fmt.Errorf("%w: importance must be between 0 and 1", ErrBadRequest)
	}
	info, _ := kind.Info()
	scope := schema.ScopeProject
	if info.UserScoped && s.Vaults[schema.ScopeUser] != nil {
		scope = schema.ScopeUser
	}
	c := extract.Candidate{Kind: kind, Scope: scope, Title: title, Summary: strings.TrimSpace(in.Summary), Body: strings.TrimSpace(in.Body),
		Tags: in.Tags, Importance: in.Importance, Extractor: s.Agent, Status: schema.DefaultStatus(kind)}
	red := s.reds[schema.ScopeProject]
	if red == nil {
		red = s.reds[schema.ScopeUser]
	}
	var redacted []string
	for _, f := range red.Scan(c.Title + "\n" + c.Summary + "\n" + c.Body) {
		redacted = append(redacted, f.Rule)
	}
	r, err := s.retriever()
	if err != nil {
		return nil, err
	}
	code := ""
	if s.CodeCommit != nil {
		code = s.CodeCommit()
	}
	res, err := extract.CaptureCandidates(ctx, []extract.Candidate{c}, extract.Options{Vaults: s.Vaults, Lookup: extract.IndexLookup{R: r},
		Redactor: red, Now: s.Now(), Meta: extract.Meta{Agent: s.Agent, Session: extract.SanitizeLine(in.Session), Source: s.Agent, CodeCommit: code}})
	if err != nil {
		return nil, err
	}
	out := &RememberOutput{Redacted: redacted}
	if len(res.Plan) > 0 {
		a := res.Plan[0]
		out.Op, out.Reason = string(a.Op), a.Reason
		if a.Target != nil {
			out.Target = a.Target.String()
		}
	}
	if res.Applied != nil {
		if len(res.Applied.Written) > 0 {
			out.URI = res.Applied.Written[0].String()
		}
		if len(res.Applied.Commits) > 0 {
			out.Commit = res.Applied.Commits[0]
		}
	}
	if out.URI == "" {
		out.URI = out.Target
	}
	return out, nil
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
type SaveOutput struct {
	URI    string `json:"uri"`
	Commit string `json:"commit,omitempty"`
}

// Save validates a memory's full text and commits it. An edit based on an
// older version of the file than the current one is refused, so two
// editors never overwrite each other silently.
func (s *Service) Save(ctx context.Context, in SaveInput) (*SaveOutput, error) {
	u, v, err := s.resolve(in.URI)
	if err != nil {
		return nil, err
	}
	if len(in.Raw) > maxMemoryBytes {
		return nil, fmt.Errorf("%w: a memory is at most %d bytes", ErrBadRequest, maxMemoryBytes)
	}
	m, err := schema.Parse(u.RelPath(), []byte(in.Raw))
	if err != nil {
		return nil, err
	}
	if err := m.Validate(u.RelPath()); err != nil {
		return nil, err
	}
	m.URI = u
	verb := "edit"
	if in.Create {
		verb = "remember"
	}
	meta := s.meta(v, verb, in.Session)
	meta.Body = strings.TrimSpace(in.Message)
	res, err := v.Update(ctx, meta, func(tx *vault.Tx) error {
		exists := tx.Exists(u)
		switch {
		case in.Create && exists:
			return fmt.Errorf("%w: %s already exists", ErrConflict, u)
		case !in.Create && !exists:
			return fmt.Errorf("%w: %s", ErrNotFound, u)
		}
		if !in.Create && in.Base != "" {
			if changed, err := changedSince(v, u, in.Base); err != nil {
				return err
			} else if changed {
				return fmt.Errorf("%w: %s changed since you opened it; reload and edit again", ErrConflict, u)
			}
		}
		now := schema.Timestamp(s.Now())
		if m.Created.IsZero() {
			m.Created = now
		}
		m.Updated = now
		return tx.Put(m)
	})
	if err != nil {
		return nil, err // secrets and invalid memories keep their own errors
	}
	return &SaveOutput{URI: u.String(), Commit: res.Commit}, nil
}

// maxMemoryBytes bounds one memory file written through a surface.
const maxMemoryBytes = 256 << 10

// changedSince reports whether the memory's file differs between base
// and HEAD.
func changedSince(v *vault.Vault, u schema.URI, base string) (bool, error) {
	old, err := v.Show(base, u)
	if err != nil {
		if errors.Is(err, vault.ErrNotFound) {
			return true, nil
		}
		return false, fmt.Errorf("%w: base %q: %v", ErrBadRequest, base, err)
	}
	cur, err := v.Show("", u)
	if err != nil {
		return true, nil
	}
	return string(old) != string(cur), nil
}
