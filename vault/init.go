package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/templates"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// gitignore keeps derived and transient files out of history.
const defaultGitignore = `# cairn: derived and transient files never belong in history
.cache/
.journal/
.cairn-tmp-*
*~
*.swp
.*.sw?
.DS_Store
`

// InitOptions configures Init.
type InitOptions struct {
	Scope schema.Scope
	// Dir is the project directory for a project vault (the vault goes in
	// Dir/.memory) or the vault directory itself for the user vault.
	Dir string
	// Tracked lets the project's own git history hold the memory files:
	// the vault's history then lives inside the project's .git instead of
	// .memory/.git, and .memory/ is not excluded.
	Tracked bool
}

// InitResult says what Init did; every field is false on a second run over
// a complete vault.
type InitResult struct {
	Root          string
	GitDir        string
	CreatedRepo   bool
	CreatedFiles  []string
	Commit        string
	ExcludedIn    string // project exclude file that gained the vault
	ProjectIsRepo bool
}

// Init creates a vault, or completes one that is missing pieces. It is safe
// to run any number of times: an existing vault is left as it is.
func Init(ctx context.Context, opts InitOptions) (*InitResult, error) {
	root := opts.Dir
	if opts.Scope == schema.ScopeProject {
		root = filepath.Join(opts.Dir, DirName)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	res := &InitResult{Root: root}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", root, err)
	}
	gitDir, err := initGitDir(root, opts)
	if err != nil {
		return nil, err
	}
	res.GitDir = gitDir
	if res.CreatedRepo, err = initRepo(root, gitDir, opts.Tracked); err != nil {
		return nil, err
	}
	if res.CreatedFiles, err = writeStarterFiles(root); err != nil {
		return nil, err
	}
	if res.Commit, err = commitStarterFiles(ctx, root, opts.Scope, res.CreatedFiles); err != nil {
		return nil, err
	}
	if opts.Scope == schema.ScopeProject {
		_ = RegisterProject(root) // best effort: only cross-project promotion needs it
	}
	if opts.Scope == schema.ScopeProject && !opts.Tracked {
		top, _ := projectRepo(opts.Dir)
		res.ProjectIsRepo = top != ""
		changed, path, err := excludeFromProject(opts.Dir, root)
		if err != nil {
			return nil, fmt.Errorf("exclude the vault from the project's git: %w", err)
		}
		if changed {
			res.ExcludedIn = path
		}
	}
	return res, nil
}

// starterFiles are the files a vault starts with, in commit order.
var starterFiles = []string{config.FileName, ".gitignore", ".gitattributes"}

// initRepo makes the vault's git repository in gitDir unless there is
// one, and says whether it made it.
func initRepo(root, gitDir string, tracked bool) (bool, error) {
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); !errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	st := filesystem.NewStorage(osfs.New(gitDir), cache.NewObjectLRUDefault())
	if _, err := git.InitWithOptions(st, osfs.New(root), git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")}); err != nil {
		return false, fmt.Errorf("git init %s: %w", gitDir, err)
	}
	if tracked {
		// go-git links a separate work tree with a ".git" file; inside a
		// project that tracks .memory/ it would read as an embedded
		// repository, so drop it (core.worktree still names the tree).
		if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && !fi.IsDir() {
			if err := os.Remove(filepath.Join(root, ".git")); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// writeStarterFiles writes the starter files that are not there, and
// names those it wrote.
func writeStarterFiles(root string) ([]string, error) {
	files := map[string][]byte{
		config.FileName:  templates.Config(),
		".gitignore":     []byte(defaultGitignore),
		".gitattributes": []byte(mergeDriverAttributes),
	}
	var created []string
	for _, name := range starterFiles {
		p := filepath.Join(root, name)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := writeFileAtomic(p, files[name], 0o644); err != nil {
			return created, err
		}
		created = append(created, name)
	}
	return created, nil
}

// commitStarterFiles commits the files this run created, and any a
// crashed earlier run left uncommitted; it never sweeps a later hand
// edit of them into "init".
func commitStarterFiles(ctx context.Context, root string, scope schema.Scope, created []string) (string, error) {
	v, err := Open(root, scope)
	if err != nil {
		return "", err
	}
	cr, err := v.Update(ctx, CommitMeta{Verb: "init", Subject: "init: " + schema.Scheme + string(scope), Source: "cli"}, func(tx *Tx) error {
		for _, name := range starterFiles {
			if !slices.Contains(created, name) && v.InHead(name) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				return err
			}
			if err := tx.PutFile(name, data); err != nil {
				return err
			}
		}
		return nil
	})
	return cr.Commit, err
}

// initGitDir decides where the vault's history lives and refuses to mix the
// two layouts.
func initGitDir(root string, opts InitOptions) (string, error) {
	own := filepath.Join(root, ".git")
	if !opts.Tracked || opts.Scope != schema.ScopeProject {
		return own, nil
	}
	if _, err := os.Stat(own); err == nil {
		return "", fmt.Errorf("%s already has its own git history in %s; --tracked needs the vault's history inside the project's .git (move or remove %s first)", root, own, own)
	}
	pg := projectGitDir(opts.Dir)
	if pg == "" {
		return "", fmt.Errorf("--tracked: %s is not in a git repository", opts.Dir)
	}
	if strings.HasPrefix(pg, root) {
		return "", fmt.Errorf("--tracked: the project repository %s is inside the vault", pg)
	}
	return filepath.Join(commonDir(pg), trackedGitDir), nil
}
