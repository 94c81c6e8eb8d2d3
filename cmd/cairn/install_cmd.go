package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairnmem/cairn/hooks"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// InstallCmd sets up an agent's hooks and MCP server.
type InstallCmd struct {
	Agent    string `arg:"" enum:"claude,codex" help:"claude (Claude Code) or codex (Codex CLI)."`
	Scope    string `enum:"project,user" default:"project" help:"project settings (.claude/, .codex/) or your user settings."`
	Backfill bool   `help:"Learn from the project's past sessions right away (see cairn backfill)."`
}

// Help lists what install writes.
func (c *InstallCmd) Help() string {
	return `Claude Code, project scope: hooks in .claude/settings.json, the MCP server in
.mcp.json. User scope: ~/.claude/settings.json and ~/.claude.json.
Codex: hooks in .codex/hooks.json (or ~/.codex/hooks.json), the MCP server in
config.toml beside it. Codex asks you to trust new hooks once (/hooks).

Every other setting is kept. Running install again changes nothing;
'cairn uninstall' removes exactly what install added.`
}

// UninstallCmd removes what install added.
type UninstallCmd struct {
	Agent string `arg:"" enum:"claude,codex" help:"claude or codex."`
	Scope string `enum:"project,user" default:"project" help:"project or user settings."`
}

func (c *InstallCmd) Run(g *Globals, env *Env) error {
	t, err := target(c.Agent, c.Scope)
	if err != nil {
		return err
	}
	created, err := c.ensureVault(g, t.Project)
	if err != nil {
		return err
	}
	changes, err := hooks.Install(t)
	if err != nil {
		return err
	}
	if created != "" {
		if !g.JSON {
			env.Printf("Initialized the project vault in %s (the hooks write there)\n", created)
		}
		changes = append([]hooks.Change{{Path: created, Action: "created", Detail: []string{"project vault"}}}, changes...)
	}
	if err := printChanges(env, g, changes, "installed"); err != nil {
		return err
	}
	return offerBackfill(g, env, c.Backfill)
}

// ensureVault creates the project vault when a project install finds
// none: hooks without a vault would do nothing, silently, forever. It
// returns the vault it created, or "".
func (c *InstallCmd) ensureVault(g *Globals, project string) (string, error) {
	if c.Scope != "project" || g.Vault != "" {
		return "", nil
	}
	if _, err := vault.Find(project); err == nil {
		return "", nil
	}
	res, err := vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: project})
	if err != nil {
		return "", fmt.Errorf("create the project vault the hooks need: %w", err)
	}
	return res.Root, nil
}

func (c *UninstallCmd) Run(g *Globals, env *Env) error {
	t, err := target(c.Agent, c.Scope)
	if err != nil {
		return err
	}
	changes, err := hooks.Uninstall(t)
	if err != nil {
		return err
	}
	return printChanges(env, g, changes, "removed")
}

func target(agent, scope string) (hooks.Target, error) {
	home, err := os.UserHomeDir()
	if err != nil && scope == "user" {
		return hooks.Target{}, err
	}
	wd, _ := os.Getwd()
	project := wd
	if root, err := vault.Find(wd); err == nil {
		project = filepath.Dir(root)
	}
	return hooks.Target{Agent: agent, Scope: scope, Project: project, Home: home, Command: currentSelf().hookCommand()}, nil
}

func printChanges(env *Env, g *Globals, changes []hooks.Change, verb string) error {
	if g.JSON {
		return env.JSON(changes)
	}
	any := false
	for _, ch := range changes {
		if ch.Action == "unchanged" {
			env.Printf("unchanged  %s\n", ch.Path)
			continue
		}
		any = true
		env.Printf("%-9s  %s\n", ch.Action, ch.Path)
		for _, d := range ch.Detail {
			env.Printf("           %s %s\n", verb, d)
		}
	}
	if !any {
		env.Printf("Nothing to do.\n")
	}
	return nil
}
