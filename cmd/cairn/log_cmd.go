package main

import (
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// LogCmd shows history.
type LogCmd struct {
	URI   string `arg:"" optional:"" help:"Only commits that touched this memory."`
	Limit int    `short:"n" help:"Show at most N commits (0: all)." default:"0"`
	Scope string `help:"Vault when no URI is given: project or user." enum:"project,user" default:"project"`
}

func (c *LogCmd) Run(g *Globals, env *Env) error {
	var uri *schema.URI
	if c.URI != "" {
		u, _, err := env.URI(c.URI)
		if err != nil {
			return err
		}
		uri = &u
	}
	commits, err := env.App().History(uri, schema.Scope(c.Scope), c.Limit)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(commits)
	}
	for i, cm := range commits {
		if i > 0 {
			env.Printf("\n")
		}
		env.Printf("%s  %s  %s\n", cm.Short(), cm.Time.Local().Format("2006-01-02 15:04"), cm.Subject)
		var tags []string
		for _, t := range cm.Trailers {
			tags = append(tags, strings.ToLower(strings.TrimPrefix(t.Key, "Cairn-"))+"="+abbrev(t.Value))
		}
		env.Printf("          by %s", cm.Author)
		if len(tags) > 0 {
			env.Printf("  %s", strings.Join(tags, " "))
		}
		env.Printf("\n")
		if cm.Body != "" {
			for _, l := range strings.Split(cm.Body, "\n") {
				env.Printf("          %s\n", l)
			}
		}
	}
	return nil
}

// abbrev shortens full commit hashes in trailers for text output.
func abbrev(s string) string {
	if len(s) == 40 && strings.Trim(s, "0123456789abcdef") == "" {
		return s[:8]
	}
	return s
}
