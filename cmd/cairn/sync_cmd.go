package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// SyncCmd shares the vault through a git remote.
type SyncCmd struct {
	Remote   string `arg:"" optional:"" help:"Remote name (default: origin, or the project's origin on branch cairn/memory)."`
	PullOnly bool   `name:"pull-only" help:"Fetch and merge; do not push."`
	PushOnly bool   `name:"push-only" help:"Push; do not fetch (fails if the remote moved)."`
	Scope    string `help:"Vault: project or user." enum:"project,user" default:"project"`
}

// Help explains sync.
func (c *SyncCmd) Help() string {
	return `Fetches the remote's memory branch, merges it, and pushes. Memory files edited
on both sides are merged by kind (see the README): mergeable kinds keep both
sides' content, decisions keep the later version current and the other
superseded, immutable kinds keep both; conflict markers never reach a file.
Uncommitted hand edits are committed first.

With no remote configured, the project's own origin is used under the branch
cairn/memory, so a team shares memory without a second repository.
HTTPS remotes use $CAIRN_GIT_TOKEN, else your git credential helper; SSH
remotes use your ssh-agent.`
}

func (c *SyncCmd) Run(g *Globals, env *Env) error {
	if c.PullOnly && c.PushOnly {
		return fmt.Errorf("%w: --pull-only and --push-only exclude each other", errUsage)
	}
	v, err := env.VaultFor(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	if err := v.PrepareMerges(context.Background(), currentSelf().shellCommand()); err != nil {
		return err
	}
	var r vault.Remote
	if c.Remote == "" {
		var added bool
		if r, added, err = v.DefaultRemote(); err != nil {
			return err
		}
		if added && !g.JSON {
			env.Printf("Added remote origin %s (branch %s): the project's own origin\n", r.URL, r.Branch)
		}
	} else {
		rs, err := v.Remotes()
		if err != nil {
			return err
		}
		for _, x := range rs {
			if x.Name == c.Remote {
				r = x
			}
		}
		if r.Name == "" {
			return fmt.Errorf("%w: %s (add it with `cairn remote add %s URL`)", vault.ErrNoRemote, c.Remote, c.Remote)
		}
	}
	rep, err := v.Sync(context.Background(), vault.SyncOptions{Remote: r, PullOnly: c.PullOnly, PushOnly: c.PushOnly})
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	env.Printf("%s %s (%s): %s", rep.Remote, rep.URL, rep.Branch, rep.Result)
	if rep.Pushed {
		env.Printf(", pushed")
	}
	env.Printf("\n")
	if rep.HandEdits > 0 {
		env.Printf("  committed %d hand edit(s) first\n", rep.HandEdits)
	}
	for _, group := range []struct {
		name  string
		paths []string
	}{{"added", rep.Added}, {"updated", rep.Updated}, {"deleted", rep.Deleted}} {
		for _, p := range group.paths {
			env.Printf("  %-8s %s\n", group.name, p)
		}
	}
	for _, m := range rep.Merges {
		env.Printf("  merged   %s: %s\n", m.Path, m.Note)
	}
	return nil
}

// RemoteCmd manages remotes.
type RemoteCmd struct {
	Add  RemoteAddCmd  `cmd:"" help:"Add a remote: any git URL (path, ssh, https)."`
	List RemoteListCmd `cmd:"" default:"1" help:"List remotes."`
}

// RemoteAddCmd adds a remote.
type RemoteAddCmd struct {
	Name   string `arg:"" help:"Remote name, e.g. origin."`
	URL    string `arg:"" help:"Git URL: a path, ssh://, git@host:repo, https://."`
	Branch string `default:"main" help:"Remote branch holding the vault's history (use cairn/memory to share a project's own repository)."`
	Scope  string `help:"Vault: project or user." enum:"project,user" default:"project"`
}

func (c *RemoteAddCmd) Run(g *Globals, env *Env) error {
	v, err := env.VaultFor(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	if err := v.AddRemote(vault.Remote{Name: c.Name, URL: c.URL, Branch: c.Branch}); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	env.Printf("Added remote %s %s (branch %s); run `cairn sync` to share\n", c.Name, c.URL, c.Branch)
	return nil
}

// RemoteListCmd lists remotes.
type RemoteListCmd struct {
	Scope string `help:"Vault: project or user." enum:"project,user" default:"project"`
}

func (c *RemoteListCmd) Run(g *Globals, env *Env) error {
	v, err := env.VaultFor(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	rs, err := v.Remotes()
	if err != nil {
		return err
	}
	if g.JSON {
		if rs == nil {
			rs = []vault.Remote{}
		}
		return env.JSON(rs)
	}
	for _, r := range rs {
		env.Printf("%s\t%s\t%s\n", r.Name, r.URL, r.Branch)
	}
	return nil
}

// MergeDriverCmd is git's merge driver for memory files.
type MergeDriverCmd struct {
	Base   string `arg:"" help:"%O: the common ancestor's version."`
	Ours   string `arg:"" help:"%A: our version; the result is written here."`
	Theirs string `arg:"" help:"%B: their version."`
	Path   string `arg:"" help:"%P: the file's path in the vault."`
}

func (c *MergeDriverCmd) Run(g *Globals, env *Env) error {
	read := func(p string) []byte {
		b, _ := os.ReadFile(p)
		return b
	}
	base, ours, theirs := read(c.Base), read(c.Ours), read(c.Theirs)
	if len(base) == 0 {
		base = nil
	}
	scope := schema.ScopeProject
	if v, err := env.Project(); err != nil {
		if u, err := env.User(); err == nil {
			scope = u.Scope
		}
	} else {
		scope = v.Scope
	}
	res, err := vault.MergeMemory(scope, c.Path, base, ours, theirs, func(rel string) string {
		return vaultFreePath(rel)
	})
	if err != nil {
		return err
	}
	if res.Extra != nil {
		// The second version becomes a file of its own beside the merged
		// one; `cairn commit` (or the next cairn write) commits it.
		if err := os.WriteFile(res.ExtraPath, res.Extra, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "cairn merge-driver: %s: %s\n", c.Path, res.Note)
	return os.WriteFile(c.Ours, res.Data, 0o644)
}

// vaultFreePath picks rel-N.md not present in the work tree (git runs
// merge drivers at the top of the work tree).
func vaultFreePath(rel string) string {
	stem := strings.TrimSuffix(rel, ".md")
	for i := 2; ; i++ {
		p := fmt.Sprintf("%s-%d.md", stem, i)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			return p
		}
	}
}
