package main

import (
	"context"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// ReindexCmd rebuilds the search cache from the files.
type ReindexCmd struct {
	Scope string `help:"Only the project or the user vault." enum:"project,user," default:""`
}

func (c *ReindexCmd) Run(g *Globals, env *Env) error {
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	type done struct {
		Vault   string `json:"vault"`
		Docs    int    `json:"docs"`
		Seconds string `json:"seconds"`
	}
	var out []done
	for _, ix := range ixs {
		start := time.Now()
		if err := ix.Rebuild(context.Background(), ""); err != nil {
			return err
		}
		st, err := ix.Status(context.Background())
		if err != nil {
			return err
		}
		d := done{Vault: ix.Vault().Root, Docs: st.Docs, Seconds: time.Since(start).Round(time.Millisecond).String()}
		out = append(out, d)
		if !g.JSON {
			env.Printf("Reindexed %s vault %s: %d memories in %s\n", ix.Scope(), d.Vault, d.Docs, d.Seconds)
		}
	}
	if g.JSON {
		return env.JSON(out)
	}
	return nil
}
