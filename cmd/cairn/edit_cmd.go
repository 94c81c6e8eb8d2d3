package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// EditCmd edits a memory in the user's editor.
type EditCmd struct {
	URI string `arg:"" help:"Memory to edit (URI, vault path or file path)."`
}

func (c *EditCmd) Run(g *Globals, env *Env, a *app.App) error {
	uri, v, err := a.Resolve(c.URI)
	if err != nil {
		return err
	}
	before, err := v.ReadFile(uri)
	if err != nil {
		return err
	}
	path, err := draftFile(filepath.Base(uri.RelPath()), before)
	if err != nil {
		return err
	}
	var after []byte
	if _, err := editLoop(env, path, before, func(data []byte) error {
		parsed, err := schema.Parse(path, data)
		if err != nil {
			return err
		}
		if err := parsed.Validate(path); err != nil {
			return err
		}
		after = data
		return nil
	}); err != nil {
		return err
	}
	// Someone (an agent's hook, say) may have written this memory while
	// the editor was open: Save refuses to overwrite their change.
	out, err := a.Save(context.Background(), app.SaveInput{URI: uri.String(), Raw: after, Before: before})
	if err != nil {
		return fmt.Errorf("%w\nyour edit is kept in %s", err, path)
	}
	removeDraft(path)
	res := vault.CommitResult{Commit: out.Commit}
	return printWrite(env, g, v, "Edited", uri, res)
}
