package main

import (
	"context"

	"github.com/cairnmem/cairn/app"
)

// ForgetCmd removes a memory going forward.
type ForgetCmd struct {
	URI string `arg:"" help:"Memory to remove."`
	Why string `short:"w" help:"Why it is wrong or obsolete (required), recorded in the commit message."`
}

// Help says how to get a forgotten memory back.
func (c *ForgetCmd) Help() string {
	return `The file is removed in one commit; history keeps it. To bring it back:
  cairn show HEAD~1:<uri> > <file>   then   cairn commit
To remove content from history itself, see 'cairn purge'.`
}

func (c *ForgetCmd) Run(g *Globals, env *Env, a *app.App) error {
	out, err := a.Forget(context.Background(), c.URI, c.Why, "")
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(writeResult{URI: out.URI, Commit: out.Commit, Committed: out.Commit != ""})
	}
	env.Printf("Forgot %s (commit %s)\n", out.URI, out.Commit[:8])
	env.Printf("Recover it with: cairn show %s~1:%s\n", out.Commit[:8], out.URI)
	return nil
}
