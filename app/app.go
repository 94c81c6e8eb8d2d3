package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Options say where the vaults are and who is asking.
type Options struct {
	// Dir is where the project vault is looked for (there or in a
	// parent); "" is the working directory.
	Dir string
	// Vault is the project vault's directory; it wins over Dir.
	Vault string
	// UserVault is the user vault's directory; "" is the platform's.
	UserVault string
	// Vaults are vaults opened already (tests, benchmarks); a scope
	// present here is never looked for on disk. A nil entry means "none".
	Vaults map[schema.Scope]*vault.Vault
	// Source names the surface in commit trailers and in the provenance
	// of what it writes: cli, mcp, http, claude-code, codex.
	Source string
	// Session is the agent session a request comes from when the request
	// does not name one (the CLI's --session).
	Session string
	// LockTimeout bounds waits for the vault's write lock and the cache's
	// locks; zero means each package's default.
	LockTimeout time.Duration
	// Now is the clock for writes, recency and time windows.
	Now func() time.Time
	// Warn receives notices meant for a person: a cache rebuild, an
	// embedder that is down, a vault created on first need.
	Warn func(msg string)
	// Progress, when set, returns how to report a cache rebuild of v.
	Progress func(v *vault.Vault) func(done, total int)
	// Log receives capture's notes (enrichment failures, dropped
	// memories); nil drops them.
	Log io.Writer
}

// App is the use cases over the vaults Options name. It is cheap to make:
// nothing is opened until a use case needs it, and what is opened is kept
// for the App's life. An App is safe for concurrent use.
type App struct {
	o  Options
	st *state
}

// state is what an App opened, shared by the Apps For makes.
type state struct {
	mu sync.Mutex
	// vaults are the vaults opened so far, with how opening went.
	vaults map[schema.Scope]*opened
	ixs    map[*vault.Vault]*index.Index
	code   string
	coded  bool
}

type opened struct {
	v   *vault.Vault
	red *extract.Redactor
	err error
}

// New returns an App over the vaults o names.
func New(o Options) *App {
	if o.Session != "" {
		o.Session = extract.SanitizeLine(o.Session)
	}
	return &App{o: o, st: &state{vaults: map[schema.Scope]*opened{}, ixs: map[*vault.Vault]*index.Index{}}}
}

// For is this App serving another surface (mcp, http): the same vaults
// and caches, opened once, and writes recorded under source.
func (a *App) For(source string) *App {
	o := a.o
	o.Source = source
	return &App{o: o, st: a.st}
}

// Source names the surface this App serves.
func (a *App) Source() string { return a.o.Source }

func (a *App) now() time.Time {
	if a.o.Now != nil {
		return a.o.Now()
	}
	return time.Now()
}

func (a *App) warn(msg string) {
	if a.o.Warn != nil {
		a.o.Warn(msg)
	}
}

// session is the session a request names, else the App's, sanitized: it
// lands in trailers, frontmatter and the access log.
func (a *App) session(s string) string {
	if s == "" {
		return a.o.Session
	}
	return extract.SanitizeLine(s)
}

// Project opens the project vault: Options.Vault, or .memory/ in Dir or a
// parent.
func (a *App) Project() (*vault.Vault, error) {
	return a.open(schema.ScopeProject)
}

// User opens the user vault.
func (a *App) User() (*vault.Vault, error) {
	return a.open(schema.ScopeUser)
}

// VaultFor opens the vault holding a scope's memories.
func (a *App) VaultFor(scope schema.Scope) (*vault.Vault, error) {
	if scope == schema.ScopeUser {
		return a.User()
	}
	return a.Project()
}

func (a *App) open(scope schema.Scope) (*vault.Vault, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	if o, ok := a.st.vaults[scope]; ok {
		return o.v, o.err
	}
	o := &opened{}
	o.v, o.err = a.find(scope)
	if o.err == nil {
		o.red, o.err = a.guard(o.v)
	}
	if o.err != nil {
		o.v = nil
	}
	a.st.vaults[scope] = o
	return o.v, o.err
}

// find locates and opens a scope's vault, without its guard.
func (a *App) find(scope schema.Scope) (*vault.Vault, error) {
	if v, ok := a.o.Vaults[scope]; ok {
		if v == nil {
			return nil, fmt.Errorf("%w: no %s vault", vault.ErrNotVault, scope)
		}
		return v, nil
	}
	if scope == schema.ScopeUser {
		dir, err := a.UserDir()
		if err != nil {
			return nil, err
		}
		v, err := vault.Open(dir, schema.ScopeUser)
		if err != nil {
			return nil, fmt.Errorf("%w (create it with `cairn init --user`)", err)
		}
		return v, nil
	}
	root := a.o.Vault
	if root == "" {
		dir := a.o.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		var err error
		if root, err = vault.Find(dir); err != nil {
			return nil, err
		}
	}
	return vault.Open(root, schema.ScopeProject)
}

// guard installs the secret guard v's own configuration asks for, and the
// App's lock timeout and clock.
func (a *App) guard(v *vault.Vault) (*extract.Redactor, error) {
	if a.o.LockTimeout > 0 {
		v.LockTimeout = a.o.LockTimeout
	}
	if a.o.Now != nil {
		v.Now = a.o.Now
	}
	return extract.GuardVault(v)
}

// UserDir is where the user vault is, or would be created.
func (a *App) UserDir() (string, error) {
	if a.o.UserVault != "" {
		return filepath.Abs(a.o.UserVault)
	}
	return vault.UserDir()
}

// Vaults opens the vaults of a scope; with no scope, every vault that
// exists, failing only when there is none. A vault that exists but cannot
// be opened is an error, never silently left out.
func (a *App) Vaults(scope schema.Scope) ([]*vault.Vault, error) {
	if scope != "" {
		v, err := a.VaultFor(scope)
		if err != nil {
			return nil, err
		}
		return []*vault.Vault{v}, nil
	}
	var out []*vault.Vault
	var first error
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		v, err := a.VaultFor(sc)
		switch {
		case err == nil:
			out = append(out, v)
		case !errors.Is(err, vault.ErrNotVault):
			return nil, err
		case first == nil:
			first = err
		}
	}
	if len(out) == 0 {
		return nil, first
	}
	return out, nil
}

// byScope is the vaults that exist, by scope, for capture: the project
// vault is required; a user vault that cannot be opened is left out with
// a warning (its preferences then go to the project), since a capture
// that fails loses the session.
func (a *App) byScope() (map[schema.Scope]*vault.Vault, error) {
	p, err := a.Project()
	if err != nil {
		return nil, err
	}
	out := map[schema.Scope]*vault.Vault{schema.ScopeProject: p}
	switch u, err := a.User(); {
	case err == nil:
		out[schema.ScopeUser] = u
	case !errors.Is(err, vault.ErrNotVault):
		a.warn(fmt.Sprintf("user vault left out: %v", err))
	}
	return out, nil
}

// Redactor is the redactor of a scope's vault, built from its own rules;
// nil when the vault cannot be opened.
func (a *App) Redactor(scope schema.Scope) *extract.Redactor { return a.redactor(scope) }

// redactor is the redactor of a scope's vault: its own rules.
func (a *App) redactor(scope schema.Scope) *extract.Redactor {
	if _, err := a.VaultFor(scope); err != nil {
		return nil
	}
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	return a.st.vaults[scope].red
}

// EnsureUser opens the user vault, creating it when there is none: a
// preference is the person's, and must not be lost to a project or
// dropped because nobody ran `cairn init --user` yet.
func (a *App) EnsureUser(ctx context.Context) (v *vault.Vault, created bool, err error) {
	v, err = a.User()
	if err == nil || !errors.Is(err, vault.ErrNotVault) {
		return v, false, err
	}
	if _, preset := a.o.Vaults[schema.ScopeUser]; preset {
		return nil, false, err
	}
	dir, derr := a.UserDir()
	if derr != nil {
		return nil, false, err
	}
	if _, ierr := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeUser, Dir: dir}); ierr != nil {
		return nil, false, fmt.Errorf("create the user vault in %s: %w", dir, ierr)
	}
	a.st.mu.Lock()
	delete(a.st.vaults, schema.ScopeUser)
	a.st.mu.Unlock()
	v, err = a.User()
	if err == nil {
		a.warn("created the user vault in " + v.Root + " for preferences that follow you")
	}
	return v, err == nil, err
}

// Index opens v's search cache once.
func (a *App) Index(v *vault.Vault) (*index.Index, error) {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	if ix := a.st.ixs[v]; ix != nil {
		return ix, nil
	}
	o := index.Options{LockTimeout: a.o.LockTimeout, Warn: a.o.Warn}
	if a.o.Progress != nil {
		o.Progress = a.o.Progress(v)
	}
	ix, err := index.Open(v, o)
	if err != nil {
		return nil, err
	}
	a.st.ixs[v] = ix
	return ix, nil
}

// Indexes opens the search caches of the vaults a scope selects.
func (a *App) Indexes(scope schema.Scope) ([]*index.Index, error) {
	vs, err := a.Vaults(scope)
	if err != nil {
		return nil, err
	}
	out := make([]*index.Index, 0, len(vs))
	for _, v := range vs {
		ix, err := a.Index(v)
		if err != nil {
			return nil, err
		}
		out = append(out, ix)
	}
	return out, nil
}

// Retriever ranks across the vaults a scope selects, on the App's clock.
func (a *App) Retriever(scope schema.Scope) (*retrieve.Retriever, error) {
	ixs, err := a.Indexes(scope)
	if err != nil {
		return nil, err
	}
	r := retrieve.New(ixs)
	r.Now = a.now
	return r, nil
}

// CodeCommit is the project's HEAD, for commit trailers: the code a
// memory was written against.
func (a *App) CodeCommit() string { return a.codeCommit() }

func (a *App) codeCommit() string {
	a.st.mu.Lock()
	done := a.st.coded
	a.st.mu.Unlock()
	if done {
		return a.st.code
	}
	dir := ""
	if p, err := a.Project(); err == nil {
		dir = p.ProjectDir()
	}
	if dir == "" {
		dir = a.o.Dir
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	code := vault.ProjectHead(dir)
	a.st.mu.Lock()
	a.st.code, a.st.coded = code, true
	a.st.mu.Unlock()
	return code
}

// Meta describes a commit this App makes for a request.
func (a *App) Meta(verb, session string) vault.CommitMeta {
	return vault.CommitMeta{Verb: verb, Session: a.session(session), Source: a.o.Source, CodeCommit: a.codeCommit()}
}
