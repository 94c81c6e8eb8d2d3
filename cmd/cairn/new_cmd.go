package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/templates"
)

// NewCmd writes a memory in the user's editor.
type NewCmd struct {
	Kind  string `arg:"" help:"Kind of memory (decision, constraint, preference, ...)."`
	Title string `arg:"" help:"Title; the file name is derived from it."`
	Scope string `help:"Vault to write to: project or user." enum:"project,user" default:"project"`
}

func (c *NewCmd) Run(g *Globals, env *Env) error {
	kind, err := schema.ParseKind(c.Kind)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	v, err := env.VaultFor(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	now := schema.Timestamp(v.Now())
	tmpl, err := templates.Memory(string(kind), templates.MemoryData{Kind: string(kind), Title: c.Title, Now: now})
	if err != nil {
		return err
	}
	info, _ := kind.Info()
	base := schema.URI{Scope: v.Scope, Path: info.Dir + "/" + schema.Slugify(c.Title)}
	path, err := draftFile(filepath.Base(base.RelPath()), tmpl)
	if err != nil {
		return err
	}
	var m *schema.Memory
	_, err = editLoop(env, path, tmpl, func(data []byte) error {
		parsed, err := schema.Parse(path, []byte(templates.StripGuidance(string(data))))
		if err != nil {
			return err
		}
		if err := parsed.Validate(path); err != nil {
			return err
		}
		m = parsed
		return nil
	})
	if err != nil {
		return err
	}
	if m.Created.IsZero() {
		m.Created = now
	}
	if m.Updated.IsZero() {
		m.Updated = now
	}
	meta := env.Meta(v, "remember")
	if m.Source == nil {
		m.Source = &schema.Source{Agent: "cli", Session: meta.Session, CodeCommit: meta.CodeCommit}
	}
	// Kind and title may have changed in the editor; the URI follows them.
	info, _ = m.Kind.Info()
	m.URI = schema.URI{Scope: v.Scope, Path: info.Dir + "/" + schema.Slugify(m.Title)}
	res, err := v.Create(context.Background(), m, meta)
	if err != nil {
		return fmt.Errorf("%w\nyour draft is kept in %s", err, path)
	}
	removeDraft(path)
	return printWrite(env, g, v, "Remembered", m.URI, res)
}
