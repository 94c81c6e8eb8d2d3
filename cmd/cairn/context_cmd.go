package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

// ContextCmd builds a context pack.
type ContextCmd struct {
	Task     string `short:"t" help:"What the agent is about to do; adds the memories relevant to it."`
	Budget   int    `help:"Size in tokens (about 4 characters each). Default: retrieve.pack_budget in cairn.yaml."`
	Format   string `enum:"markdown,json" default:"markdown" help:"markdown (what agents get) or json."`
	Explain  bool   `help:"Show why each item is in the pack."`
	Resume   bool   `help:"The session continues (resume, compact): leave out the primer."`
	OnlyNew  bool   `name:"only-new" help:"Leave out what this session was already shown."`
	Safe     bool   `help:"Leave out memories tagged as known-bad paths."`
	Sections string `help:"Comma-separated sections to include: must, primer, you, rules, task, recent, threads."`
	Now      string `help:"Build the pack as of this time (RFC 3339); for reproducible packs." placeholder:"TIME"`
	Scope    string `help:"Only the project or the user vault." enum:"project,user," default:""`
}

// Help explains the pack.
func (c *ContextCmd) Help() string {
	return `A context pack is what an agent is handed at the start of a session or with
a prompt: obligatory items first (pinned memories, reminders whose gate is
open, action-required threads), the last session, how the user works,
active decisions and constraints, memories relevant to --task, recent
activity and open threads. Each item is a one-line summary or a short
overview with its URI; budgets per section keep the pack under the 10,000
characters a hook may inject, and items are never cut in half.

The same vault, parameters and --now always give the same pack, byte for
byte. With --session the pack is logged in the cache: later packs for the
session rank what it already saw lower, and --explain shows why each item
was chosen.`
}

func (c *ContextCmd) Run(g *Globals, env *Env) error {
	var asOf time.Time
	if c.Now != "" {
		t, err := schema.ParseTime(c.Now)
		if err != nil {
			return fmt.Errorf("%w: --now: %v", errUsage, err)
		}
		asOf = t
	}
	session := g.Session // --session / $CAIRN_SESSION: the pack is logged for it
	req := retrieve.PackRequest{Task: c.Task, Session: session, Budget: c.Budget, SessionStart: true, Resume: c.Resume,
		OnlyNew: c.OnlyNew, Safe: c.Safe, Record: session != ""}
	if c.Sections != "" {
		req.Sections = cleanList(strings.Split(c.Sections, ","))
	}
	p, err := env.App().Pack(context.Background(), schema.Scope(c.Scope), req, asOf)
	if err != nil {
		return err
	}
	if g.JSON || c.Format == "json" {
		return env.JSON(p)
	}
	env.Printf("%s", p.Markdown)
	if c.Explain {
		fmt.Fprintf(env.Stderr, "\nWhy each item is here (pack %s, %d of %d tokens, %d characters):\n", p.Key, p.Tokens, p.Budget, len(p.Markdown))
		for _, s := range p.Sections {
			fmt.Fprintf(env.Stderr, "%s (%d of %d tokens", s.Title, s.Tokens, s.Budget)
			if s.Cut > 0 {
				fmt.Fprintf(env.Stderr, ", %d cut", s.Cut)
			}
			fmt.Fprintf(env.Stderr, ")\n")
			for _, it := range s.Items {
				fmt.Fprintf(env.Stderr, "  %s: %s", it.URI, it.Reason)
				if len(it.Parts) > 0 {
					fmt.Fprintf(env.Stderr, " [score %.3g: %s]", it.Score, explainParts(it.Parts))
				}
				fmt.Fprintln(env.Stderr)
			}
		}
	}
	return nil
}
