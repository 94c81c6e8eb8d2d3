package main

import (
	"context"

	"github.com/cairnmem/cairn/schema"
)

// ConsolidateCmd folds near duplicates together.
type ConsolidateCmd struct {
	DryRun bool   `help:"Show the clusters and what would happen; change nothing."`
	Scope  string `help:"Only the project or the user vault (default: both)." enum:"project,user," default:""`
}

// Help explains the policies.
func (c *ConsolidateCmd) Help() string {
	return `Finds clusters of near-duplicate memories (same kind, word pairs overlapping
about 80% or more) and consolidates each in one commit whose
Cairn-Consolidated-From trailers list the sources: preferences, patterns and
profile merge into the oldest file; threads and reminders too (done wins);
decisions and constraints keep the newest current and mark the others
superseded; events, cases, outcomes and sessions keep the newest.

It also promotes a preference stated in 3 or more of your projects (every
project vault 'cairn init' has seen on this machine) into the user vault.`
}

func (c *ConsolidateCmd) Run(g *Globals, env *Env) error {
	rep, err := env.App().Consolidate(context.Background(), schema.Scope(c.Scope), c.DryRun)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	if len(rep.Clusters) == 0 && len(rep.Promotions) == 0 {
		env.Printf("No near duplicates, nothing to promote.\n")
	}
	for _, r := range rep.Clusters {
		env.Printf("%s (%s):", r.Kept, r.Policy)
		for _, u := range r.Merged {
			env.Printf("\n  merged in     %s", u)
		}
		for _, u := range r.Super {
			env.Printf("\n  superseded    %s", u)
		}
		for _, u := range r.Removed {
			env.Printf("\n  repeat removed %s", u)
		}
		if r.Commit != "" {
			env.Printf("\n  commit %.8s", r.Commit)
		}
		env.Printf("\n")
	}
	for _, p := range rep.Promotions {
		env.Printf("preference %q is stated in %d projects: promoted to the user vault\n", p.Title, len(p.Projects))
	}
	if c.DryRun {
		env.Printf("(dry run: nothing written)\n")
	}
	return nil
}
