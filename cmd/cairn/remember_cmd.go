package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// maxBody bounds a body read from stdin; memories are notes, not dumps.
const maxBody = 1 << 20

// RememberCmd keeps a memory the way agents do over MCP: deduplicated,
// merged or superseded by its kind's policy.
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
	URI        string   `help:"Exact URI to write, as a new file (default: derived from kind and title)."`
	Scope      string   `help:"Vault to write to: project, user, or kind (preferences and profile to the user vault, the rest to the project)." enum:"project,user,kind" default:"kind"`
	New        bool     `help:"Write a new file even when a memory on the same subject exists (no merge, no supersede, no duplicate check)."`
}

// Help explains the policy.
func (c *RememberCmd) Help() string {
	return `A memory on a subject cairn already holds is handled by its kind's policy, as
when an agent remembers it: a duplicate is skipped, a preference or pattern is
merged into the existing file, a decision or constraint supersedes the old one.
--new (or --uri) writes a plain new file instead. Preferences and profile go to
the user vault, which is created on first need.`
}

func (c *RememberCmd) Run(g *Globals, env *Env, a *app.App) error {
	body, err := c.readBody(env)
	if err != nil {
		return err
	}
	in := app.RememberInput{Kind: c.Kind, Title: c.Title, Body: body, Summary: c.Summary, Tags: c.Tag, Pinned: c.Pin, Gate: c.Gate,
		Triggers: c.Trigger, Links: c.Link, URI: c.URI, New: c.New}
	if c.Scope != "kind" {
		in.Scope = schema.Scope(c.Scope)
	}
	if c.Importance != nil {
		in.Importance = *c.Importance
	}
	if c.Confidence != nil {
		in.Confidence = *c.Confidence
	}
	out, err := a.Remember(context.Background(), in)
	if err != nil {
		return err
	}
	return printRemembered(env, g, out)
}

// printRemembered says what became of a remembered memory.
func printRemembered(env *Env, g *Globals, out *app.RememberOutput) error {
	if g.JSON {
		return env.JSON(out)
	}
	commit := ""
	if len(out.Commit) >= 8 {
		commit = " (commit " + out.Commit[:8] + ")"
	}
	switch extract.Op(out.Op) {
	case extract.OpSkip:
		env.Printf("Already remembered as %s: %s\n", out.Target, out.Reason)
	case extract.OpMerge:
		env.Printf("Merged into %s%s\n", out.URI, commit)
	case extract.OpSupersede:
		env.Printf("Remembered %s, superseding %s%s\n", out.URI, out.Target, commit)
	case extract.OpClose:
		env.Printf("Closed %s%s\n", out.URI, commit)
	default:
		env.Printf("Remembered %s%s\n", out.URI, commit)
	}
	for _, r := range out.Redacted {
		env.Warnf("redacted a secret (%s) before writing", r)
	}
	return nil
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
