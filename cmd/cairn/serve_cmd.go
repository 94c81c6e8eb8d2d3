package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/serve"
)

// ServeCmd runs the JSON API and the web viewer.
type ServeCmd struct {
	Addr       string `help:"host:port to listen on (default: serve.addr in cairn.yaml, 127.0.0.1:7411)." placeholder:"HOST:PORT"`
	PrintToken bool   `name:"print-token" help:"Print the vault's API token and exit."`
}

// Help documents the security model.
func (c *ServeCmd) Help() string {
	return `Serves the web viewer at http://127.0.0.1:7411/ and the JSON API under /api/
(see the README). Requests naming another Host are refused (DNS rebinding);
there is no CORS; every request that changes something needs the vault's token
(Authorization: Bearer <token>, see --print-token), and so does every request
when you bind an address other than loopback. The viewer's page holds no
secret: open it through the one-time link printed at start (or
/?login=<token> for another browser), which gives the browser an HttpOnly
session cookie. Ctrl+C shuts down gracefully.`
}

func (c *ServeCmd) Run(g *Globals, env *Env) error {
	svc, err := env.Service("http")
	if err != nil {
		return err
	}
	// The token and the settings come from the project vault when there
	// is one, else from the user vault.
	home := svc.Vaults[schema.ScopeProject]
	if home == nil {
		home = svc.Vaults[schema.ScopeUser]
	}
	token, err := serve.Token(home)
	if err != nil {
		return err
	}
	if c.PrintToken {
		env.Printf("%s\n", token)
		return nil
	}
	addr := c.Addr
	if addr == "" {
		addr = home.Config.Serve.Addr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	login := serve.NewLoginCode()
	h, err := serve.Handler(svc, serve.HTTPOptions{Addr: ln.Addr().String(), Token: token, MaxBody: int64(home.Config.Serve.MaxBodyKB) << 10, Version: versionString(), LoginCode: login})
	if err != nil {
		ln.Close()
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	debug.SetGCPercent(100) // a long-running process: the CLI's setting is for milliseconds
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	env.Printf("cairn serving %s on http://%s/ (Ctrl+C stops)\n", home.Root, ln.Addr())
	env.Printf("open the viewer with this one-time link: http://%s/?login=%s\n", ln.Addr(), login)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	env.Printf("shutting down\n")
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
