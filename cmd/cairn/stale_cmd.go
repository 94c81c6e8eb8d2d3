package main

import (
	"context"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// StaleCmd lists memories the code has moved past.
type StaleCmd struct {
	Scope string `help:"Only the project or the user vault (default: both)." enum:"project,user," default:""`
}

// Help explains the rule.
func (c *StaleCmd) Help() string {
	return `A memory is possibly stale when its title or body names files of the project
(limiter/limiter.go) that changed in the project's git history after the
commit the memory was written at (its Cairn-Code-Commit / source.code_commit).
Searches rank such memories lower and context packs flag them. The check also
runs when an agent session ends (in the detached finalizer); this command
refreshes it and lists the result.`
}

func (c *StaleCmd) Run(g *Globals, env *Env) error {
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	st, err := retrieve.RefreshStale(context.Background(), ixs)
	if err != nil {
		return err
	}
	if g.JSON {
		if st == nil {
			st = []vault.StaleMemory{}
		}
		return env.JSON(st)
	}
	if len(st) == 0 {
		env.Printf("No memory names project files that changed since it was written.\n")
		return nil
	}
	for _, s := range st {
		env.Printf("%s  %s\n  written at %.10s; since then %d commit(s) changed %v\n", s.URI, s.Title, s.CodeCommit, s.Commits, s.Files)
	}
	return nil
}
