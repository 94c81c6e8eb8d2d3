package main

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// DiffCmd shows changes.
type DiffCmd struct {
	Args  []string `arg:"" optional:"" help:"[REV | REV..REV] [URI]: no REV compares the work tree with HEAD." name:"rev-and-uri"`
	Scope string   `help:"Vault when no URI is given: project or user." enum:"project,user" default:"project"`
}

// Help gives examples, since the arguments are positional.
func (c *DiffCmd) Help() string {
	return `Examples:
  cairn diff                         uncommitted hand edits
  cairn diff HEAD~3                  everything since three commits ago
  cairn diff HEAD~1..HEAD mem://project/decisions/use-bleve`
}

func (c *DiffCmd) Run(g *Globals, env *Env) error {
	if len(c.Args) > 2 {
		return fmt.Errorf("%w: diff takes at most a revision and a URI", errUsage)
	}
	var rev, target string
	for _, a := range c.Args {
		if looksLikeMemory(a) && target == "" {
			target = a
		} else if rev == "" {
			rev = a
		} else {
			return fmt.Errorf("%w: %q: expected a memory URI", errUsage, a)
		}
	}
	opts := vault.DiffOptions{}
	opts.From, opts.To, _ = strings.Cut(rev, "..")
	var v *vault.Vault
	var err error
	if target != "" {
		var uri schema.URI
		if uri, v, err = env.URI(target); err != nil {
			return err
		}
		opts.URI = &uri
	} else if v, err = env.VaultFor(schema.Scope(c.Scope)); err != nil {
		return err
	}
	diffs, err := v.Diff(opts)
	if err != nil {
		return err
	}
	if g.JSON {
		if diffs == nil {
			diffs = []vault.FileDiff{}
		}
		return env.JSON(diffs)
	}
	for _, d := range diffs {
		env.Printf("%s", d.Patch)
	}
	return nil
}

// looksLikeMemory tells a URI argument from a revision.
func looksLikeMemory(s string) bool {
	return strings.HasPrefix(s, schema.Scheme) || strings.HasSuffix(s, ".md") ||
		(strings.Contains(s, "/") && !strings.Contains(s, "..") && !strings.ContainsAny(s, "~^@"))
}
