package main

import (
	"context"
	"os"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// InitCmd creates a vault.
type InitCmd struct {
	User     bool   `help:"Create the user vault (see --user-vault for where) instead of a project vault."`
	Tracked  bool   `help:"Let the project's git track .memory/ itself; the vault's own history then lives in the project's .git/cairn/ instead of .memory/.git."`
	Dir      string `arg:"" optional:"" help:"Project directory (default: the current directory)." type:"existingdir"`
	Backfill bool   `help:"Learn from the project's past Claude Code and Codex sessions right away (see cairn backfill)."`
}

// Help explains what init does to a project.
func (c *InitCmd) Help() string {
	return `A project vault is .memory/ in the project directory: a git repository of its
own, so cairn's commits never touch the project's index or branches. When the
project is a git repository, .memory/ is added to .git/info/exclude; with
--tracked the project may commit the memory files instead.

Running init again is harmless: it only adds what is missing.`
}

func (c *InitCmd) Run(g *Globals, env *Env) error {
	opts := vault.InitOptions{Scope: schema.ScopeProject, Dir: c.Dir, Tracked: c.Tracked}
	if c.User {
		dir, err := env.userDir()
		if err != nil {
			return err
		}
		opts.Scope, opts.Dir = schema.ScopeUser, dir
	} else if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	res, err := vault.Init(context.Background(), opts)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(res)
	}
	fresh := res.CreatedRepo || len(res.CreatedFiles) > 0 || res.Commit != ""
	switch {
	case fresh && c.User:
		env.Printf("Initialized the user vault in %s\n", res.Root)
	case fresh:
		env.Printf("Initialized the project vault in %s\n", res.Root)
	default:
		env.Printf("Vault already initialized in %s; nothing to do.\n", res.Root)
	}
	if res.ExcludedIn != "" {
		env.Printf("Added %s/ to %s so the project's git ignores it.\n", vault.DirName, res.ExcludedIn)
	}
	if fresh && !c.User {
		env.Printf("\nNext:\n  cairn install claude                           hooks + MCP for Claude Code (or: cairn install codex)\n  cairn remember --kind decision --title \"...\"   write a memory\n  cairn init --user                              a vault for preferences that follow you\n")
	}
	if c.User {
		return nil
	}
	if c.Dir != "" {
		g.Vault = res.Root
	}
	return offerBackfill(g, env, c.Backfill)
}
