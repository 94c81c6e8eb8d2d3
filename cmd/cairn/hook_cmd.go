package main

import (
	"context"

	"github.com/cairnmem/cairn/hooks"
)

// HookCmd is what agents run: stdin JSON in, stdout JSON out, exit 0.
type HookCmd struct {
	Event   string `arg:"" help:"session-start, user-prompt, post-tool, pre-compact, stop or session-end."`
	Agent   string `help:"Agent calling: claude or codex." default:"claude"`
	Payload string `hidden:"" help:"Payload file (for the detached finalizer)."`
}

// Help explains the contract.
func (c *HookCmd) Help() string {
	return `Agents call this; 'cairn install claude' or 'cairn install codex' sets it up.
It reads the hook's JSON payload on stdin and, for session-start and
user-prompt, prints {"hookSpecificOutput": {"additionalContext": ...}}.
It always exits 0: failures go to .memory/.cache/hooks.log, never to the agent.`
}

func (c *HookCmd) Run(g *Globals, env *Env) error {
	exe := currentSelf().executable()
	agent := "claude-code"
	if c.Agent == "codex" {
		agent = "codex"
	}
	hooks.Run(context.Background(), c.Event, env.Stdin, env.Stdout, hooks.Options{Agent: agent, UserVault: g.UserVault, Executable: exe, Payload: c.Payload})
	return nil
}
