package main

import (
	"context"
	"fmt"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
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

type consolidateReport struct {
	Clusters   []*extract.Consolidation `json:"clusters"`
	Promotions []extract.Promotion      `json:"promotions"`
	DryRun     bool                     `json:"dry_run"`
}

func (c *ConsolidateCmd) Run(g *Globals, env *Env) error {
	ctx := context.Background()
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	clusters, err := retrieve.DuplicateClusters(ctx, ixs)
	if err != nil {
		return err
	}
	rep := consolidateReport{DryRun: c.DryRun, Clusters: []*extract.Consolidation{}, Promotions: []extract.Promotion{}}
	for _, cl := range clusters {
		v, err := env.VaultFor(cl[0].URI.Scope)
		if err != nil {
			return err
		}
		var uris []schema.URI
		for _, d := range cl {
			uris = append(uris, d.URI)
		}
		res, err := extract.Consolidate(ctx, v, uris, env.Meta(v, "consolidate"), v.Now(), c.DryRun)
		if err != nil {
			return err
		}
		rep.Clusters = append(rep.Clusters, res)
	}
	if user, err := env.User(); err == nil && c.Scope != "project" {
		if err := c.promote(ctx, env, user, &rep); err != nil {
			return err
		}
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

func (c *ConsolidateCmd) promote(ctx context.Context, env *Env, user *vault.Vault, rep *consolidateReport) error {
	roots, err := vault.Projects()
	if err != nil {
		return err
	}
	var projects []*vault.Vault
	for _, r := range roots {
		if v, err := vault.Open(r, schema.ScopeProject); err == nil {
			projects = append(projects, v)
		}
	}
	proms, cands, err := extract.PromotablePreferences(projects)
	if err != nil || len(cands) == 0 {
		return err
	}
	red, err := extract.GuardVault(user)
	if err != nil {
		return err
	}
	uix, err := env.Indexes(schema.ScopeUser)
	if err != nil {
		return err
	}
	res, err := extract.Promote(ctx, cands, extract.Options{Vaults: map[schema.Scope]*vault.Vault{schema.ScopeUser: user},
		Lookup: extract.IndexLookup{R: retrieve.New(uix)}, Redactor: red, DryRun: c.DryRun, Meta: extract.Meta{Agent: "cli"}})
	if err != nil {
		return fmt.Errorf("promote preferences: %w", err)
	}
	for i, a := range res.Plan {
		if a.Op != extract.OpSkip && i < len(proms) {
			rep.Promotions = append(rep.Promotions, proms[i])
		}
	}
	return nil
}
