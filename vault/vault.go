package vault

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// DirName is the project vault's directory under the project root.
const DirName = ".memory"

// trackedGitDir is where the vault's history lives, inside the project's
// git directory, when the project tracks .memory/ itself (init --tracked):
// a .git inside .memory would make the project see an embedded repository.
const trackedGitDir = "cairn/memory.git"

// Vault is one vault on disk: a project vault (<project>/.memory) or the
// user vault.
type Vault struct {
	Root     string       // absolute path of the vault directory
	GitDir   string       // absolute path of its git directory
	Scope    schema.Scope // which URIs it holds
	Config   config.Config
	realRoot string // Root with symlinks resolved, for containment checks

	// LockTimeout bounds the wait for the write lock; zero means the default.
	LockTimeout time.Duration
	// Now is the clock for created/updated and commit times.
	Now func() time.Time
	// Guard inspects every file before it is staged for a commit; an error
	// refuses the write. Secret scanning plugs in here so that no path into
	// history (CLI, hooks, MCP, hand edits) can skip it.
	Guard func(rel string, data []byte) error
	// Clean rewrites every text bound for a commit message (subject, body,
	// trailers such as the session id) into one safe to keep: secrets
	// redacted, control bytes stripped. Nil strips control bytes only.
	Clean func(string) string

	repoMu    sync.Mutex
	repo      *git.Repository
	packStamp string
}

// Open opens the vault at root. It fails with ErrNotVault when root has no
// cairn.yaml or no git history, and with config.ErrInvalid when cairn.yaml
// is broken.
func Open(root string, scope schema.Scope) (*Vault, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(filepath.Join(abs, config.FileName)); err != nil || fi.IsDir() {
		return nil, fmt.Errorf("%w: %s has no %s (run `cairn init`)", ErrNotVault, abs, config.FileName)
	}
	gitDir, err := findGitDir(abs)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(abs, config.FileName))
	if err != nil {
		return nil, err
	}
	return &Vault{Root: abs, GitDir: gitDir, Scope: scope, Config: cfg, realRoot: real, Now: time.Now}, nil
}

// findGitDir locates the vault's git directory: .git inside the vault, or,
// for a vault tracked by its project, a directory inside the project's .git.
func findGitDir(root string) (string, error) {
	own := filepath.Join(root, ".git")
	if fi, err := os.Stat(own); err == nil && fi.IsDir() {
		return own, nil
	}
	if pg := projectGitDir(filepath.Dir(root)); pg != "" {
		tracked := filepath.Join(commonDir(pg), trackedGitDir)
		if fi, err := os.Stat(tracked); err == nil && fi.IsDir() {
			return tracked, nil
		}
	}
	return "", fmt.Errorf("%w: %s has no git history (run `cairn init` again to repair it)", ErrNotVault, root)
}

// Find walks up from dir to the nearest directory holding a project vault
// and returns the vault's root.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		candidate := filepath.Join(d, DirName)
		if fi, err := os.Stat(filepath.Join(candidate, config.FileName)); err == nil && !fi.IsDir() {
			return candidate, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%w: no %s/ in %s or any parent (run `cairn init`)", ErrNotVault, DirName, abs)
		}
		d = parent
	}
}

// Repo opens the vault's git repository, once until the packs change:
// go-git reads the list of packs once per repository, so after a pack
// (pack.go, a fetch) that moved loose objects, only a fresh repository
// finds them. Writers call Repo after taking the lock.
func (v *Vault) Repo() (*git.Repository, error) {
	v.repoMu.Lock()
	defer v.repoMu.Unlock()
	stamp := packStamp(v.GitDir)
	if v.repo != nil && stamp == v.packStamp {
		return v.repo, nil
	}
	st := filesystem.NewStorageWithOptions(osfs.New(v.GitDir), cache.NewObjectLRUDefault(), filesystem.Options{})
	repo, err := git.Open(st, osfs.New(v.Root))
	if err != nil {
		return nil, fmt.Errorf("%w: open git history at %s: %v", ErrNotVault, v.GitDir, err)
	}
	v.repo, v.packStamp = repo, stamp
	return repo, nil
}

// packStamp changes when a pack is added or removed.
func packStamp(gitDir string) string {
	fi, err := os.Stat(filepath.Join(gitDir, "objects", "pack"))
	if err != nil {
		return ""
	}
	return fmt.Sprint(fi.ModTime().UnixNano(), fi.Size())
}

func (v *Vault) now() time.Time {
	if v.Now == nil {
		return time.Now()
	}
	return v.Now()
}

// ProjectDir is the project a project vault belongs to, or "" for the user
// vault.
func (v *Vault) ProjectDir() string {
	if v.Scope != schema.ScopeProject || filepath.Base(v.Root) != DirName {
		return ""
	}
	return filepath.Dir(v.Root)
}
