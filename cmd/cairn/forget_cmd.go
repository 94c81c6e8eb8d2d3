package main

import (
	"context"
	"strings"
)

// ForgetCmd removes a memory going forward.
type ForgetCmd struct {
	URI string `arg:"" help:"Memory to remove."`
	Why string `short:"w" help:"Reason, recorded in the commit message."`
}

// Help says how to get a forgotten memory back.
func (c *ForgetCmd) Help() string {
	return `The file is removed in one commit; history keeps it. To bring it back:
  cairn show HEAD~1:<uri> > <file>   then   cairn commit
To remove content from history itself, see 'cairn purge'.`
}

func (c *ForgetCmd) Run(g *Globals, env *Env) error {
	uri, v, err := env.URI(c.URI)
	if err != nil {
		return err
	}
	meta := env.Meta(v, "forget")
	meta.Body = strings.TrimSpace(c.Why)
	res, err := v.Forget(context.Background(), uri, meta)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(writeResult{URI: uri.String(), Commit: res.Commit, Committed: res.Committed()})
	}
	env.Printf("Forgot %s (commit %s)\n", uri, res.Commit[:8])
	env.Printf("Recover it with: cairn show %s~1:%s\n", res.Commit[:8], uri)
	return nil
}
