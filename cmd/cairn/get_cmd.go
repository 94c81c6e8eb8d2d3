package main

import (
	"fmt"

	"github.com/cairnmem/cairn/schema"
)

// GetCmd prints a memory.
type GetCmd struct {
	URI  string `arg:"" help:"Memory URI (mem://project/decisions/x), vault path (decisions/x) or file path."`
	Tier *int   `help:"Print one tier: 0 the one-line summary, 1 the overview, 2 the whole body." placeholder:"N"`
}

// memoryJSON is a memory as `get --json` prints it.
type memoryJSON struct {
	*schema.Memory
	Path     string   `json:"path"`
	L0       string   `json:"l0"`
	Overview string   `json:"overview,omitempty"`
	Body     string   `json:"body,omitempty"`
	Tier     int      `json:"tier"`
	Wiki     []string `json:"wiki_links,omitempty"`
	AllLinks []string `json:"all_links,omitempty"`
}

func (c *GetCmd) Run(g *Globals, env *Env) error {
	tier := schema.TierFull
	if c.Tier != nil {
		if *c.Tier < 0 || *c.Tier > 2 {
			return fmt.Errorf("%w: --tier must be 0, 1 or 2", errUsage)
		}
		tier = schema.Tier(*c.Tier)
	}
	uri, v, err := env.URI(c.URI)
	if err != nil {
		return err
	}
	m, err := v.Read(uri)
	if err != nil {
		return err
	}
	if g.JSON {
		path, _ := v.PathOf(uri)
		out := memoryJSON{Memory: m, Path: path, L0: m.L0(), Tier: int(tier)}
		if tier >= schema.TierOverview {
			out.Overview = m.Overview()
		}
		if tier == schema.TierFull {
			out.Body = m.Body
		}
		out.AllLinks, out.Wiki = m.AllLinks()
		return env.JSON(out)
	}
	if c.Tier == nil {
		raw, err := v.ReadFile(uri)
		if err != nil {
			return err
		}
		_, err = env.Stdout.Write(raw)
		return err
	}
	switch tier {
	case schema.TierSummary:
		env.Printf("%s\n", m.L0())
	default:
		env.Printf("# %s\n\n%s\n", m.Title, m.TierText(tier))
		if tier == schema.TierOverview && m.Overview() != m.Body {
			env.Printf("\n(details: cairn get %s --tier 2)\n", uri)
		}
	}
	return nil
}
