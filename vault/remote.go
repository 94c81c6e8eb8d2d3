package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
)

// ErrNoRemote marks a sync with nowhere to sync to.
var ErrNoRemote = errors.New("no remote")

// DefaultMemoryBranch is where a vault's history goes on the project's own
// remote, so a team shares memory without a second repository.
const DefaultMemoryBranch = "cairn/memory"

// Remote is a place the vault syncs with.
type Remote struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Branch string `json:"branch"` // the remote branch holding the vault's history
}

// Remotes lists the vault's remotes.
func (v *Vault) Remotes() ([]Remote, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	cfg, err := repo.Config()
	if err != nil {
		return nil, err
	}
	var out []Remote
	for name, rc := range cfg.Remotes {
		r := Remote{Name: name, Branch: remoteBranch(cfg, name)}
		if len(rc.URLs) > 0 {
			r.URL = rc.URLs[0]
		}
		out = append(out, r)
	}
	return out, nil
}

func remoteBranch(cfg *gitconfig.Config, name string) string {
	if b := cfg.Raw.Section("cairn").Subsection(name).Option("branch"); b != "" {
		return b
	}
	return "main"
}

// AddRemote records a remote and the branch the vault's history lives on.
func (v *Vault) AddRemote(r Remote) error {
	if r.Name == "" || strings.ContainsAny(r.Name, " /\\\t\n") {
		return fmt.Errorf("remote name %q: use a plain word such as origin", r.Name)
	}
	if r.URL == "" {
		return fmt.Errorf("remote %s: a URL is required", r.Name)
	}
	if r.Branch == "" {
		r.Branch = "main"
	}
	repo, err := v.Repo()
	if err != nil {
		return err
	}
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	if old, ok := cfg.Remotes[r.Name]; ok && len(old.URLs) > 0 && old.URLs[0] != r.URL {
		return fmt.Errorf("remote %s already points at %s", r.Name, old.URLs[0])
	}
	cfg.Remotes[r.Name] = &gitconfig.RemoteConfig{Name: r.Name, URLs: []string{r.URL},
		Fetch: []gitconfig.RefSpec{gitconfig.RefSpec("+refs/heads/" + r.Branch + ":refs/remotes/" + r.Name + "/" + r.Branch)}}
	cfg.Raw.Section("cairn").Subsection(r.Name).SetOption("branch", r.Branch)
	return repo.SetConfig(cfg)
}

// DefaultRemote is the remote sync uses when none is named: the only one,
// or "origin"; with none configured, the project's origin on the
// cairn/memory branch (added and reported).
func (v *Vault) DefaultRemote() (Remote, bool, error) {
	rs, err := v.Remotes()
	if err != nil {
		return Remote{}, false, err
	}
	for _, r := range rs {
		if r.Name == "origin" || len(rs) == 1 {
			return r, false, nil
		}
	}
	if len(rs) > 1 {
		return Remote{}, false, fmt.Errorf("%w: several remotes and none named origin; name one", ErrNoRemote)
	}
	url := projectOrigin(v.ProjectDir())
	if url == "" {
		return Remote{}, false, fmt.Errorf("%w: add one with `cairn remote add origin URL` (the project has no origin to share)", ErrNoRemote)
	}
	r := Remote{Name: "origin", URL: url, Branch: DefaultMemoryBranch}
	if err := v.AddRemote(r); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// projectOrigin is the URL of the project repository's origin remote.
func projectOrigin(dir string) string {
	if dir == "" {
		return ""
	}
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return ""
	}
	rem, err := r.Remote("origin")
	if err != nil || len(rem.Config().URLs) == 0 {
		return ""
	}
	u := rem.Config().URLs[0]
	// A relative path is relative to the project, not to the vault.
	if !strings.Contains(u, "://") && !strings.Contains(u, "@") && !filepath.IsAbs(u) {
		if abs, err := filepath.Abs(filepath.Join(dir, u)); err == nil {
			if _, err := os.Stat(abs); err == nil {
				u = abs
			}
		}
	}
	return u
}

// mergeDriverAttributes registers the cairn merge driver for memories.
const mergeDriverAttributes = "*.md merge=cairn\n"

// EnsureMergeDriver registers the cairn merge driver in the vault's git
// config, so that git itself (a pull, a rebase by hand) merges memory
// files with cairn's rules instead of conflict markers. The attributes
// file is part of the vault's history and written by init.
func (v *Vault) EnsureMergeDriver(command string) error {
	repo, err := v.Repo()
	if err != nil {
		return err
	}
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	sec := cfg.Raw.Section("merge").Subsection("cairn")
	want := command + " merge-driver %O %A %B %P"
	if sec.Option("driver") == want {
		return nil
	}
	sec.SetOption("name", "cairn memory merge (frontmatter-aware, never conflict markers)")
	sec.SetOption("driver", want)
	return repo.SetConfig(cfg)
}
