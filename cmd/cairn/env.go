package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

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

// Env is what commands get besides their flags: streams and vaults.
type Env struct {
	g      *Globals
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	project, user       *vault.Vault
	projectErr, userErr error
	opened              map[schema.Scope]bool
	warned              map[string]bool
}

func newEnv(g *Globals, stdin io.Reader, stdout, stderr io.Writer) *Env {
	if g.Dir != "" {
		// Relative paths in messages follow the directory the user asked for.
		_ = os.Chdir(g.Dir)
	}
	// The session id lands in trailers, frontmatter and the access log.
	g.Session = extract.SanitizeLine(g.Session)
	return &Env{g: g, Stdin: stdin, Stdout: stdout, Stderr: stderr, opened: map[schema.Scope]bool{}}
}

// Project opens the project vault: --vault, $CAIRN_VAULT, or .memory/ in
// the working directory or a parent.
func (e *Env) Project() (*vault.Vault, error) {
	if !e.opened[schema.ScopeProject] {
		e.opened[schema.ScopeProject] = true
		root := e.g.Vault
		if root == "" {
			wd, _ := os.Getwd()
			root, e.projectErr = vault.Find(wd)
		}
		if e.projectErr == nil {
			e.project, e.projectErr = vault.Open(root, schema.ScopeProject)
		}
		if e.project != nil {
			e.project.LockTimeout = e.g.LockTimeout
			if _, err := extract.GuardVault(e.project); err != nil {
				e.project, e.projectErr = nil, err
			}
		}
	}
	return e.project, e.projectErr
}

// User opens the user vault.
func (e *Env) User() (*vault.Vault, error) {
	if !e.opened[schema.ScopeUser] {
		e.opened[schema.ScopeUser] = true
		root, err := e.userDir()
		if err == nil {
			e.user, err = vault.Open(root, schema.ScopeUser)
		}
		if err != nil {
			err = fmt.Errorf("%w (create it with `cairn init --user`)", err)
		}
		if e.user != nil {
			e.user.LockTimeout = e.g.LockTimeout
			if _, gerr := extract.GuardVault(e.user); gerr != nil {
				e.user, err = nil, gerr
			}
		}
		e.userErr = err
	}
	return e.user, e.userErr
}

func (e *Env) userDir() (string, error) {
	if e.g.UserVault != "" {
		return filepath.Abs(e.g.UserVault)
	}
	return vault.UserDir()
}

// VaultFor opens the vault holding a scope's memories.
func (e *Env) VaultFor(scope schema.Scope) (*vault.Vault, error) {
	if scope == schema.ScopeUser {
		return e.User()
	}
	return e.Project()
}

// Vaults opens the vaults of a scope; with no scope, every vault that
// exists, failing only when there is none.
func (e *Env) Vaults(scope schema.Scope) ([]*vault.Vault, error) {
	if scope != "" {
		v, err := e.VaultFor(scope)
		if err != nil {
			return nil, err
		}
		return []*vault.Vault{v}, nil
	}
	// A vault that is missing is skipped; one that exists but is broken is
	// an error, never silently left out.
	var out []*vault.Vault
	p, perr := e.Project()
	switch {
	case perr == nil:
		out = append(out, p)
	case !errors.Is(perr, vault.ErrNotVault):
		return nil, perr
	}
	u, uerr := e.User()
	switch {
	case uerr == nil:
		out = append(out, u)
	case !errors.Is(uerr, vault.ErrNotVault):
		return nil, uerr
	}
	if len(out) == 0 {
		return nil, perr
	}
	return out, nil
}

// URI resolves a memory argument: a mem:// URI, a path to a memory file,
// or a project-relative path such as decisions/use-bleve.
func (e *Env) URI(arg string) (schema.URI, *vault.Vault, error) {
	if !strings.HasPrefix(arg, schema.Scheme) && strings.HasSuffix(arg, ".md") {
		if _, err := os.Stat(arg); err == nil {
			for _, scope := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
				if v, err := e.VaultFor(scope); err == nil {
					if u, err := v.URIOf(arg); err == nil {
						return u, v, nil
					}
				}
			}
		}
	}
	u, err := schema.ParseArg(arg, schema.ScopeProject)
	if err != nil {
		return u, nil, err
	}
	v, err := e.VaultFor(u.Scope)
	return u, v, err
}

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
