package main

import (
	"context"
	"fmt"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// IndexCmd groups cache commands.
type IndexCmd struct {
	Status IndexStatusCmd `cmd:"" help:"Report what the search cache holds, what is stale, what is invalid."`
}

// IndexStatusCmd reports on the cache without changing it.
type IndexStatusCmd struct {
	Scope string `help:"Only the project or the user vault." enum:"project,user," default:""`
}

func (c *IndexStatusCmd) Run(g *Globals, env *Env) error {
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	var all []*index.Status
	for _, ix := range ixs {
		st, err := ix.Status(context.Background())
		if err != nil {
			return err
		}
		all = append(all, st)
	}
	if g.JSON {
		return env.JSON(all)
	}
	for i, st := range all {
		if i > 0 {
			env.Printf("\n")
		}
		env.Printf("%s vault %s\n", st.Scope, st.Vault)
		env.Printf("  cache      %s (%s)\n", st.Cache, humanBytes(st.Bytes))
		if st.NeedRebuild != "" {
			env.Printf("  state      needs a rebuild: %s (the next search or `cairn reindex` does it)\n", st.NeedRebuild)
			continue
		}
		env.Printf("  memories   %d indexed", st.Docs)
		if st.NoVector > 0 {
			env.Printf(", %d without vectors", st.NoVector)
		}
		env.Printf("\n")
		env.Printf("  embedder   %s", st.Embedder.Name)
		if st.Embedder.Name == "lexical" {
			env.Printf(" (hashed words and n-grams, %d dims; not semantic)", st.Embedder.Dims)
		} else if st.Embedder.Model != "" {
			env.Printf(" %s (%d dims)", st.Embedder.Model, st.Embedder.Dims)
		}
		env.Printf("\n")
		commit := st.Commit
		if len(commit) > 8 {
			commit = commit[:8]
		}
		head := st.Head
		if len(head) > 8 {
			head = head[:8]
		}
		env.Printf("  commit     %s (vault HEAD %s)\n", commit, head)
		if len(st.Stale) == 0 {
			env.Printf("  stale      none: the cache matches the vault\n")
		} else {
			env.Printf("  stale      %d file(s), indexed on the next search:\n", len(st.Stale))
			for _, s := range st.Stale {
				env.Printf("               %-8s %s\n", s.State, s.Path)
			}
		}
		if len(st.Invalid) > 0 {
			env.Printf("  invalid    %d file(s) skipped:\n", len(st.Invalid))
			for _, inv := range st.Invalid {
				env.Printf("               %s\n", inv.Error)
			}
		}
	}
	return nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
