package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/cairnmem/cairn/serve"
)

// McpCmd runs the MCP server on stdio.
type McpCmd struct{}

// Help lists the tools.
func (c *McpCmd) Help() string {
	return `Speaks the Model Context Protocol on stdin/stdout for any MCP client
('cairn install claude' registers it). Tools: memory_search, memory_get,
memory_context, memory_remember, memory_related, memory_history,
memory_forget. Only protocol goes to stdout; warnings go to stderr.

The project vault is found from the working directory, or from
$CLAUDE_PROJECT_DIR when the client sets it; the user vault is added when
it exists.`
}

func (c *McpCmd) Run(g *Globals, env *Env) error {
	if dir := os.Getenv("CLAUDE_PROJECT_DIR"); dir != "" && g.Vault == "" && g.Dir == "" {
		_ = os.Chdir(dir)
	}
	svc, err := env.Service("mcp")
	if err != nil {
		return err
	}
	// Warnings go to stderr (env.Warnf), never to stdout: that is the
	// protocol stream.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := serve.MCPServer(svc, versionString())
	warn := func(msg string) { fmt.Fprintf(env.Stderr, "cairn: %s\n", msg) }
	err = srv.Run(ctx, &serve.StdioTransport{In: env.Stdin, Out: env.Stdout, Warn: warn})
	if err != nil && !errors.Is(err, context.Canceled) {
		slog.Debug("mcp server stopped", "err", err)
		return err
	}
	return nil
}

// Service builds the surface service over the CLI's App: the vaults that
// exist, either may be missing but not both; writes name agent as their
// source.
func (e *Env) Service(agent string) (*serve.Service, error) {
	return serve.ForApp(e.App().For(agent))
}
