package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// LsCmd lists memories.
type LsCmd struct {
	Prefix string `arg:"" optional:"" help:"URI or path prefix: mem://project/decisions, decisions/, mem://user."`
	Kind   string `short:"k" help:"Only memories of this kind."`
}

// card is the short form of a memory used by listings.
type card struct {
	URI     string    `json:"uri"`
	Kind    string    `json:"kind,omitempty"`
	Title   string    `json:"title,omitempty"`
	Summary string    `json:"summary,omitempty"`
	Status  string    `json:"status,omitempty"`
	Scope   string    `json:"scope"`
	Updated time.Time `json:"updated,omitzero"`
	Path    string    `json:"path"`
	Error   string    `json:"error,omitempty"`
}

func newCard(e vault.Entry) card {
	c := card{URI: e.URI.String(), Scope: string(e.URI.Scope), Path: e.Path}
	if e.Memory != nil {
		c.Kind, c.Title, c.Summary = string(e.Memory.Kind), e.Memory.Title, e.Memory.L0()
		c.Status, c.Updated = string(e.Memory.EffectiveStatus()), e.Memory.Updated
	}
	if e.Err != nil {
		c.Error = e.Err.Error()
	}
	return c
}

// listEntries lists the vaults a prefix selects.
func listEntries(env *Env, prefix string) ([]vault.Entry, schema.Scope, string, error) {
	scope, path, err := schema.ParsePrefix(prefix)
	if err != nil {
		return nil, "", "", err
	}
	vs, err := env.Vaults(scope)
	if err != nil {
		return nil, "", "", err
	}
	var all []vault.Entry
	for _, v := range vs {
		es, err := v.List(vault.ListOptions{Prefix: path, Parse: true})
		if err != nil {
			return nil, "", "", err
		}
		all = append(all, es...)
	}
	return all, scope, path, nil
}

func (c *LsCmd) Run(g *Globals, env *Env) error {
	var kind schema.Kind
	if c.Kind != "" {
		k, err := schema.ParseKind(c.Kind)
		if err != nil {
			return fmt.Errorf("%w: --kind: %v", errUsage, err)
		}
		kind = k
	}
	entries, _, _, err := listEntries(env, c.Prefix)
	if err != nil {
		return err
	}
	cards := []card{}
	for _, e := range entries {
		if kind != "" && (e.Memory == nil || e.Memory.Kind != kind) {
			continue
		}
		cards = append(cards, newCard(e))
	}
	if g.JSON {
		return env.JSON(cards)
	}
	if len(cards) == 0 {
		fmt.Fprintln(env.Stderr, "no memories")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, c := range cards {
		if c.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.URI, "INVALID", firstLine(c.Error))
			continue
		}
		title := c.Title
		if c.Status != "" && c.Status != string(schema.StatusActive) {
			title += " [" + c.Status + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.URI, c.Kind, title)
	}
	return tw.Flush()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
