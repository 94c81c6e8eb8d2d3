package vault_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// A vault whose history lives on another branch than main pushes that
// branch: what was just written reaches the remote.
func TestSyncPushesTheCurrentBranch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to switch branches")
	}
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	bare := filepath.Join(dir, "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: filepath.Join(dir, "p")}); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "p", vault.DirName)
	if out, err := exec.Command("git", "-C", root, "checkout", "-q", "-b", "memory").CombinedOutput(); err != nil {
		t.Fatalf("git checkout: %v %s", err, out)
	}
	v, err := vault.Open(root, schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	m := schema.New(schema.KindDecision, "Keep memory on its own branch", v.Now())
	m.URI = schema.URI{Scope: schema.ScopeProject, Path: "decisions/keep-memory-on-its-own-branch"}
	if _, err := v.Create(ctx, m, vault.CommitMeta{Verb: "remember"}); err != nil {
		t.Fatal(err)
	}
	head, _ := v.Head()
	r := vault.Remote{Name: "origin", URL: bare, Branch: "main"}
	if err := v.AddRemote(r); err != nil {
		t.Fatal(err)
	}
	rep, err := v.Sync(ctx, vault.SyncOptions{Remote: r})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := git.PlainOpen(bare)
	ref, err := b.Reference(plumbing.NewBranchReferenceName("main"), true)
	if err != nil {
		t.Fatalf("remote has no main after sync (%+v): %v", rep, err)
	}
	if ref.Hash().String() != head {
		t.Fatalf("remote main is %s, the vault's branch is at %s", ref.Hash(), head)
	}
}
