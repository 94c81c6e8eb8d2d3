package main

import (
	"fmt"
	"text/tabwriter"
)

// BlameCmd attributes each line of a memory.
type BlameCmd struct {
	URI string `arg:"" help:"Memory to blame."`
}

func (c *BlameCmd) Run(g *Globals, env *Env) error {
	uri, v, err := env.URI(c.URI)
	if err != nil {
		return err
	}
	lines, err := v.Blame(uri)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(lines)
	}
	if st, err := v.Status(); err == nil {
		for _, s := range st {
			if s.Path == uri.RelPath() {
				fmt.Fprintf(env.Stderr, "cairn: %s has uncommitted changes; blame shows the committed version\n", uri)
			}
		}
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 1, ' ', 0)
	for _, l := range lines {
		session := l.Session
		if session == "" {
			session = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%4d│ %s\n", l.Hash[:8], l.Time.Local().Format("2006-01-02 15:04"), abbrevSession(session), l.Line, l.Text)
	}
	return tw.Flush()
}

// abbrevSession keeps session ids (often UUIDs) to a readable width.
func abbrevSession(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
