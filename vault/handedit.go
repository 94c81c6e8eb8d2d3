package vault

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
)

// HandEditOptions configures CommitWorkTree.
type HandEditOptions struct {
	// Paths limits the commit to these vault-relative paths; empty means all.
	Paths []string
	// Check runs on every added or modified file before it is committed;
	// an error keeps the file out of the commit (Vault.Guard runs too).
	Check func(rel string, data []byte) error
}

// HandEditResult reports what CommitWorkTree committed and refused.
type HandEditResult struct {
	CommitResult
	Files    []FileStatus // committed changes
	Rejected []Rejection
}

// Rejection is a changed file left uncommitted, and why.
type Rejection struct {
	FileStatus
	Err error
}

// CommitWorkTree commits edits made outside cairn: every changed memory is
// validated, valid ones are committed with their updated time refreshed,
// invalid ones are reported and left exactly as they are on disk.
func (v *Vault) CommitWorkTree(ctx context.Context, meta CommitMeta, opts HandEditOptions) (HandEditResult, error) {
	var res HandEditResult
	want := map[string]bool{}
	for _, p := range opts.Paths {
		want[p] = true
	}
	if meta.Verb == "" {
		meta.Verb = "edit"
	}
	cr, err := v.Update(ctx, meta, func(tx *Tx) error {
		changes, err := v.Status()
		if err != nil {
			return err
		}
		repo, err := v.Repo()
		if err != nil {
			return err
		}
		twins := caseTwinRejections(repo, changes)
		for _, st := range changes {
			if len(want) > 0 && !want[st.Path] {
				continue
			}
			if err := twins[st.Path]; err != nil {
				res.Rejected = append(res.Rejected, Rejection{FileStatus: st, Err: err})
				continue
			}
			if err := v.stageHandEdit(tx, st, opts.Check); err != nil {
				res.Rejected = append(res.Rejected, Rejection{FileStatus: st, Err: err})
				continue
			}
			res.Files = append(res.Files, st)
		}
		return nil
	})
	res.CommitResult = cr
	return res, err
}

func (v *Vault) stageHandEdit(tx *Tx, st FileStatus, check func(string, []byte) error) error {
	if st.State == Deleted {
		return tx.DeleteFile(st.Path)
	}
	path := filepath.Join(v.Root, filepath.FromSlash(st.Path))
	data, err := v.readFile(path)
	if err != nil {
		return err
	}
	// The guard sees the file as the user wrote it, so its line numbers
	// match the editor's.
	if v.Guard != nil {
		if err := v.Guard(st.Path, data); err != nil {
			return err
		}
	}
	if check != nil {
		if err := check(st.Path, data); err != nil {
			return err
		}
	}
	shown := v.display(path)
	switch {
	case st.Path == config.FileName:
		if _, err := config.Parse(shown, data); err != nil {
			return err
		}
		return tx.PutFile(st.Path, data)
	case strings.HasSuffix(st.Path, ".md") && strings.Contains(st.Path, "/"):
		if line, r := schema.FindControl(string(data)); line > 0 {
			return fmt.Errorf("%s:%d: %w: %s (remove it: control characters break terminals and git fsck)", shown, line, schema.ErrInvalid, schema.DescribeControl(r))
		}
		if st.URI == nil {
			_, err := schema.URIFromRelPath(st.Path, v.Scope)
			return fmt.Errorf("%s: file name is not a memory URI: %w (rename the file)", shown, err)
		}
		m, err := schema.Parse(shown, data)
		if err != nil {
			return err
		}
		if err := m.Validate(shown); err != nil {
			return err
		}
		m.URI = *st.URI
		v.stampHandEdit(m, st)
		return tx.Put(m)
	default:
		return tx.PutFile(st.Path, data)
	}
}

// stampHandEdit fills created when missing and moves updated to now unless
// the editor already changed it, so recency reflects the edit.
func (v *Vault) stampHandEdit(m *schema.Memory, st FileStatus) {
	now := schema.Timestamp(v.now())
	var prev *schema.Memory
	if st.State == Modified {
		if old, err := v.Show("", *st.URI); err == nil {
			prev, _ = schema.Parse("", old)
		}
	}
	if m.Created.IsZero() {
		if prev != nil && !prev.Created.IsZero() {
			m.Created = prev.Created
		} else {
			m.Created = now
		}
	}
	if prev == nil || m.Updated.Equal(prev.Updated) || m.Updated.IsZero() {
		m.Updated = now
	}
}

// Create writes a new memory at a free URI derived from m.URI (adding -2,
// -3, ... to the slug when taken) and commits it.
func (v *Vault) Create(ctx context.Context, m *schema.Memory, meta CommitMeta) (CommitResult, error) {
	if meta.Verb == "" {
		meta.Verb = "remember"
	}
	return v.Update(ctx, meta, func(tx *Tx) error {
		m.URI = tx.UniqueURI(m.URI)
		return tx.Put(m)
	})
}

// Forget removes the memory at uri in one commit; history keeps it.
func (v *Vault) Forget(ctx context.Context, uri schema.URI, meta CommitMeta) (CommitResult, error) {
	if meta.Verb == "" {
		meta.Verb = "forget"
	}
	return v.Update(ctx, meta, func(tx *Tx) error {
		if !tx.Exists(uri) {
			return fmt.Errorf("%w: no memory at %s", ErrNotFound, uri)
		}
		return tx.Delete(uri)
	})
}

// ArchiveDir is where archived memories live.
const ArchiveDir = "archive"

// Archive moves memories under archive/ with status archived, in one
// commit: they leave searches and packs but stay readable and in
// history. It returns the new URIs in the order given.
func (v *Vault) Archive(ctx context.Context, uris []schema.URI, meta CommitMeta) (CommitResult, []schema.URI, error) {
	if meta.Verb == "" {
		meta.Verb = "archive"
	}
	var moved []schema.URI
	res, err := v.Update(ctx, meta, func(tx *Tx) error {
		moved = moved[:0]
		for _, u := range uris {
			m, err := tx.Read(u)
			if err != nil {
				return err
			}
			to := tx.UniqueURI(schema.URI{Scope: u.Scope, Path: ArchiveDir + "/" + u.Path})
			m = m.Clone()
			m.URI, m.Status = to, schema.StatusArchived
			if err := tx.Delete(u); err != nil {
				return err
			}
			if err := tx.Put(m); err != nil {
				return err
			}
			moved = append(moved, to)
		}
		return nil
	})
	return res, moved, err
}
