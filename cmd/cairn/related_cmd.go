package main

import (
	"context"

	"github.com/cairnmem/cairn/retrieve"
)

// RelatedCmd lists a memory's neighbours.
type RelatedCmd struct {
	URI   string `arg:"" help:"Memory to start from."`
	Limit int    `short:"n" default:"10" help:"How many."`
}

func (c *RelatedCmd) Run(g *Globals, env *Env) error {
	uri, _, err := env.URI(c.URI)
	if err != nil {
		return err
	}
	items, err := env.App().Related(context.Background(), uri, c.Limit)
	if err != nil {
		return err
	}
	if g.JSON {
		if items == nil {
			items = []retrieve.Item{}
		}
		return env.JSON(items)
	}
	if len(items) == 0 {
		env.Warnf("nothing links to or from %s, and no memory shares its tags", uri)
		return nil
	}
	for _, it := range items {
		env.Printf("%s  %s  %s\n    %s\n", it.URI, it.Kind, it.Title, it.Note)
	}
	return nil
}
