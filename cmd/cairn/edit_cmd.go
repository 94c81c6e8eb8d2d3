package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// EditCmd edits a memory in the user's editor.
type EditCmd struct {
	URI string `arg:"" help:"Memory to edit (URI, vault path or file path)."`
}

func (c *EditCmd) Run(g *Globals, env *Env) error {
	uri, v, err := env.URI(c.URI)
	if err != nil {
		return err
	}
	before, err := v.ReadFile(uri)
	if err != nil {
		return err
	}
	prev, err := schema.Parse(uri.RelPath(), before)
	if err != nil {
		prev = nil // a broken file can still be repaired here
	}
	path, err := draftFile(filepath.Base(uri.RelPath()), before)
	if err != nil {
		return err
	}
	var m *schema.Memory
	if _, err := editLoop(env, path, before, func(data []byte) error {
		parsed, err := schema.Parse(path, data)
		if err != nil {
			return err
		}
		if err := parsed.Validate(path); err != nil {
			return err
		}
		m = parsed
		return nil
	}); err != nil {
		return err
	}
	m.URI = uri
	now := schema.Timestamp(v.Now())
	if prev == nil || m.Updated.Equal(prev.Updated) {
		m.Updated = now
	}
	if m.Created.IsZero() {
		m.Created = now
	}
	res, err := v.Update(context.Background(), env.Meta(v, "edit"), func(tx *vault.Tx) error {
		// Someone (an agent's hook, say) may have written this memory while
		// the editor was open; never overwrite their change blindly.
		cur, err := v.ReadFile(uri)
		if err != nil || !bytes.Equal(cur, before) {
			return fmt.Errorf("%w: %s changed while you were editing", errAborted, uri)
		}
		return tx.Put(m)
	})
	if err != nil {
		return fmt.Errorf("%w\nyour edit is kept in %s", err, path)
	}
	removeDraft(path)
	return printWrite(env, g, v, "Edited", uri, res)
}
