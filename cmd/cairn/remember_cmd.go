package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// maxBody bounds a body read from stdin; memories are notes, not dumps.
const maxBody = 1 << 20

// RememberCmd writes a memory from flags.
type RememberCmd struct {
	Kind       string   `short:"k" required:"" help:"Kind: profile, preference, pattern, decision, constraint, event, case, outcome, session, thread, reminder."`
	Title      string   `short:"t" required:"" help:"One-line title; the file name is derived from it."`
	Body       string   `short:"b" help:"Markdown body. Use - to read stdin; piped stdin is read when --body is absent."`
	Summary    string   `short:"s" help:"One-line summary (L0). Default: the body's first sentence."`
	Tag        []string `short:"T" help:"Tag (repeat or comma-separate)." sep:","`
	Importance *float64 `help:"Importance from 0 to 1 (default per kind)."`
	Confidence *float64 `help:"Confidence from 0 to 1."`
	Pin        bool     `help:"Always include in context packs."`
	Gate       string   `help:"Reminder gate: always, session-start, or a due date (2026-12-01)."`
	Trigger    []string `help:"Phrase that should bring this memory up (repeatable)."`
	Link       []string `help:"URI of a related memory (repeatable)."`
	URI        string   `help:"Exact URI to write (default: derived from kind and title)."`
	Scope      string   `help:"Vault to write to: project or user." enum:"project,user" default:"project"`
}

func (c *RememberCmd) Run(g *Globals, env *Env) error {
	kind, err := schema.ParseKind(c.Kind)
	if err != nil {
		return fmt.Errorf("%w: --kind: %v", errUsage, err)
	}
	body, err := c.readBody(env)
	if err != nil {
		return err
	}
	scope := schema.Scope(c.Scope)
	var target schema.URI
	if c.URI != "" {
		if target, err = schema.ParseArg(c.URI, scope); err != nil {
			return err
		}
		scope = target.Scope
	}
	v, err := env.VaultFor(scope)
	if err != nil {
		return err
	}
	m := schema.New(kind, c.Title, v.Now())
	m.Summary = strings.TrimSpace(c.Summary)
	m.Tags = cleanList(c.Tag)
	m.Importance, m.Confidence = c.Importance, c.Confidence
	m.Pinned = c.Pin
	m.Gate = c.Gate
	m.Triggers = cleanList(c.Trigger)
	m.Links = cleanList(c.Link)
	m.Body = body
	meta := env.Meta(v, "remember")
	m.Source = &schema.Source{Agent: "cli", Session: meta.Session, CodeCommit: meta.CodeCommit}
	if target.IsZero() {
		info, _ := kind.Info()
		target = schema.URI{Scope: scope, Path: info.Dir + "/" + schema.Slugify(c.Title)}
	}
	m.URI = target
	if err := m.Validate(""); err != nil {
		return err
	}
	res, err := v.Create(context.Background(), m, meta)
	if err != nil {
		return err
	}
	return printWrite(env, g, v, "Remembered", m.URI, res)
}

// readBody takes --body, or stdin when asked with "-" or when stdin is a
// pipe or file (never a terminal, which would wait for typing).
func (c *RememberCmd) readBody(env *Env) (string, error) {
	if c.Body != "-" && c.Body != "" {
		return c.Body, nil
	}
	if c.Body == "" {
		f, ok := env.Stdin.(*os.File)
		if !ok {
			return "", nil
		}
		fi, err := f.Stat()
		if err != nil || fi.Mode()&(os.ModeNamedPipe) == 0 && !fi.Mode().IsRegular() {
			return "", nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(env.Stdin, maxBody+1))
	if err != nil {
		return "", fmt.Errorf("read body from stdin: %w", err)
	}
	if len(b) > maxBody {
		return "", fmt.Errorf("%w: body on stdin is larger than %d bytes", errUsage, maxBody)
	}
	return string(b), nil
}

// cleanList trims items and drops empty ones.
func cleanList(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// writeResult is the JSON shape of every command that writes a memory.
type writeResult struct {
	URI       string `json:"uri"`
	Path      string `json:"path"`
	Commit    string `json:"commit,omitempty"`
	Committed bool   `json:"committed"`
}

func printWrite(env *Env, g *Globals, v *vault.Vault, verb string, uri schema.URI, res vault.CommitResult) error {
	path, _ := v.PathOf(uri)
	if g.JSON {
		return env.JSON(writeResult{URI: uri.String(), Path: path, Commit: res.Commit, Committed: res.Committed()})
	}
	if !res.Committed() {
		env.Printf("%s %s (unchanged, nothing to commit)\n", verb, uri)
		return nil
	}
	env.Printf("%s %s (commit %s)\n", verb, uri, res.Commit[:8])
	return nil
}
