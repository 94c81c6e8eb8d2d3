package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// SaveInput replaces or creates a memory file from its full text, as an
// editor would.
type SaveInput struct {
	URI string
	Raw []byte // frontmatter and body
	// Base is the vault commit the edit started from (the viewer, the
	// API); Before is the file's text when it was opened (the CLI's
	// editor). A change made since either is a conflict.
	Base    string
	Before  []byte
	Message string // why, for the commit
	Session string
	Create  bool
}

// SaveOutput is the committed result of a save.
type SaveOutput struct {
	URI    string `json:"uri"`
	Commit string `json:"commit,omitempty"`
}

// maxMemoryBytes bounds one memory file written through a surface.
const maxMemoryBytes = 256 << 10

// Save validates a memory's full text and commits it. An edit of a file
// someone changed since it was opened is refused (ErrConflict), so two
// editors never overwrite each other silently.
func (a *App) Save(ctx context.Context, in SaveInput) (*SaveOutput, error) {
	u, v, err := a.Resolve(in.URI)
	if err != nil {
		return nil, err
	}
	if len(in.Raw) > maxMemoryBytes {
		return nil, badRequest("a memory is at most %d bytes", maxMemoryBytes)
	}
	m, err := schema.Parse(u.RelPath(), in.Raw)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(u.RelPath()); err != nil {
		return nil, err
	}
	m.URI = u
	var prev *schema.Memory
	if in.Before != nil {
		prev, _ = schema.Parse(u.RelPath(), in.Before) // a broken file can still be repaired
	}
	verb := "edit"
	if in.Create {
		verb = "remember"
	}
	meta := a.Meta(verb, in.Session)
	meta.Body = strings.TrimSpace(in.Message)
	res, err := v.Update(ctx, meta, func(tx *vault.Tx) error {
		exists := tx.Exists(u)
		switch {
		case in.Create && exists:
			return fmt.Errorf("%w: %s already exists", ErrConflict, u)
		case !in.Create && !exists:
			return fmt.Errorf("%w: %s", ErrNotFound, u)
		}
		if !in.Create {
			if err := changedSince(v, u, in.Base, in.Before); err != nil {
				return err
			}
		}
		now := schema.Timestamp(a.now())
		if m.Created.IsZero() {
			m.Created = now
		}
		if prev == nil || m.Updated.Equal(prev.Updated) {
			m.Updated = now
		}
		return tx.Put(m)
	})
	if err != nil {
		return nil, err // secrets and invalid memories keep their own errors
	}
	return &SaveOutput{URI: u.String(), Commit: res.Commit}, nil
}

// changedSince is the one "changed since you opened it" check: the file
// now against its text when opened, or against the commit it was opened
// at.
func changedSince(v *vault.Vault, u schema.URI, base string, before []byte) error {
	conflict := fmt.Errorf("%w: %s changed since you opened it; reload and edit again", ErrConflict, u)
	cur, err := v.ReadFile(u)
	if err != nil {
		return conflict
	}
	if before != nil && !bytes.Equal(cur, before) {
		return conflict
	}
	if base == "" {
		return nil
	}
	old, err := v.Show(base, u)
	switch {
	case errors.Is(err, vault.ErrNotFound):
		return conflict
	case err != nil:
		return badRequest("base %q: %v", base, err)
	}
	head, err := v.Show("", u)
	if err != nil || !bytes.Equal(old, head) {
		return conflict
	}
	return nil
}
