package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Globals are the flags every command accepts.
type Globals struct {
	Dir         string        `short:"C" help:"Run as if cairn was started in DIR." placeholder:"DIR" type:"existingdir"`
	Vault       string        `help:"Project vault directory (default: .memory/ here or in a parent)." env:"CAIRN_VAULT" placeholder:"DIR"`
	UserVault   string        `help:"User vault directory (default: $XDG_DATA_HOME/cairn, else ~/.local/share/cairn; macOS: ~/Library/Application Support/cairn/user; Windows: %LOCALAPPDATA%\\cairn\\user)." env:"CAIRN_USER_VAULT" placeholder:"DIR"`
	JSON        bool          `help:"Print JSON instead of text."`
	Session     string        `help:"Agent session id to record in commit trailers." env:"CAIRN_SESSION" placeholder:"ID"`
	LockTimeout time.Duration `help:"How long to wait for another writer." default:"10s" env:"CAIRN_LOCK_TIMEOUT"`
}

// Env is what commands get besides their flags: streams, and the App
// that opens vaults and runs the use cases.
type Env struct {
	g      *Globals
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	app    *app.App
	warned map[string]bool
}

func newEnv(g *Globals, stdin io.Reader, stdout, stderr io.Writer) *Env {
	if g.Dir != "" {
		// Relative paths in messages follow the directory the user asked for.
		_ = os.Chdir(g.Dir)
	}
	// The session id lands in trailers, frontmatter and the access log.
	g.Session = extract.SanitizeLine(g.Session)
	return &Env{g: g, Stdin: stdin, Stdout: stdout, Stderr: stderr}
}

// App is the one place the CLI's vaults, caches and use cases come
// from, made on first use: init may set --vault before anything opens.
func (e *Env) App() *app.App {
	if e.app == nil {
		e.app = app.New(app.Options{Vault: e.g.Vault, UserVault: e.g.UserVault, Source: "cli", Session: e.g.Session,
			LockTimeout: e.g.LockTimeout, Warn: func(msg string) { e.Warnf("%s", msg) }, Log: e.Stderr, Progress: e.progress})
	}
	return e.app
}

// Project opens the project vault: --vault, $CAIRN_VAULT, or .memory/ in
// the working directory or a parent.
func (e *Env) Project() (*vault.Vault, error) { return e.App().Project() }

// User opens the user vault.
func (e *Env) User() (*vault.Vault, error) { return e.App().User() }

func (e *Env) userDir() (string, error) { return e.App().UserDir() }

// VaultFor opens the vault holding a scope's memories.
func (e *Env) VaultFor(scope schema.Scope) (*vault.Vault, error) { return e.App().VaultFor(scope) }

// Vaults opens the vaults of a scope; with no scope, every vault that
// exists, failing only when there is none.
func (e *Env) Vaults(scope schema.Scope) ([]*vault.Vault, error) { return e.App().Vaults(scope) }

// URI resolves a memory argument: a mem:// URI, a path to a memory file,
// or a project-relative path such as decisions/use-bleve.
func (e *Env) URI(arg string) (schema.URI, *vault.Vault, error) { return e.App().Resolve(arg) }

// Meta is the commit description for a command run by a person at the CLI.
func (e *Env) Meta(v *vault.Vault, verb string) vault.CommitMeta {
	dir := v.ProjectDir()
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return vault.CommitMeta{Verb: verb, Session: e.g.Session, Source: "cli", CodeCommit: vault.ProjectHead(dir)}
}

// JSON prints v as indented JSON.
func (e *Env) JSON(v any) error {
	enc := json.NewEncoder(e.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Printf writes text output.
func (e *Env) Printf(format string, args ...any) {
	fmt.Fprintf(e.Stdout, format, args...)
}

// Warnf writes a note to stderr, once: the index warns as it works and
// results carry the same warnings, and a person needs to read it once.
func (e *Env) Warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if e.warned[msg] {
		return
	}
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	e.warned[msg] = true
	fmt.Fprintf(e.Stderr, "cairn: %s\n", msg)
}
