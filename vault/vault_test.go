package vault_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/cairnmem/cairn/vault/vaulttest"
)

func newVault(t testing.TB) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir) // keep the user's git identity out of commits
	if _, err := vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestGitVaultSuite(t *testing.T) {
	vaulttest.Run(t, func(t *testing.T) vaulttest.Fixture {
		v := newVault(t)
		return vaulttest.Fixture{Store: v, Scope: schema.ScopeProject, HandWrite: func(rel string, data []byte) {
			p := filepath.Join(v.Root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}}
	})
}

func remember(t *testing.T, v *vault.Vault, path, title string) schema.URI {
	t.Helper()
	m := schema.New(schema.KindEvent, title, time.Now())
	m.URI = schema.URI{Scope: v.Scope, Path: path}
	if _, err := v.Create(context.Background(), m, vault.CommitMeta{}); err != nil {
		t.Fatal(err)
	}
	return m.URI
}

func gitFsck(t *testing.T, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "fsck", "--no-dangling").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Fatalf("git fsck: %v\n%s", err, out)
	}
}

// A commit made by cairn must look to git exactly like one made by git:
// clean status, valid objects, an index that matches HEAD.
func TestCommitsAreGitClean(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	v := newVault(t)
	remember(t, v, "events/a", "A")
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", v.Root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	// git's own commit writes an index with a cache-tree extension, which
	// cairn's splice must handle.
	git("commit", "--allow-empty", "-q", "-m", "by hand")
	remember(t, v, "events/c", "C")
	if out := git("status", "--porcelain"); out != "" {
		t.Fatalf("status after git-written index: %s", out)
	}
	// Index version 4 (prefix-compressed names) takes the rebuild path.
	git("update-index", "--index-version", "4")
	u := remember(t, v, "events/nested/b", "B")
	if _, err := v.Forget(context.Background(), u, vault.CommitMeta{}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", v.Root, "status", "--porcelain").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Fatalf("git status after cairn commits: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(v.Root, "events", "nested")); !os.IsNotExist(err) {
		t.Fatal("empty directory left behind after forget")
	}
	gitFsck(t, v.Root)
}

// A write interrupted after the file landed but before the commit leaves
// the new file as an uncommitted edit, which CommitWorkTree then commits.
func TestCrashBeforeCommitIsRecovered(t *testing.T) {
	v := newVault(t)
	u := remember(t, v, "events/a", "A")
	m, _ := v.Read(u)
	m.Title = "A, changed before a crash"
	data, _ := m.Marshal()
	if err := os.WriteFile(filepath.Join(v.Root, "events", "a.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := v.Status()
	if err != nil || len(st) != 1 || st[0].State != vault.Modified {
		t.Fatalf("status = %+v, %v", st, err)
	}
	res, err := v.CommitWorkTree(context.Background(), vault.CommitMeta{Source: "recovery"}, vault.HandEditOptions{})
	if err != nil || !res.Committed() || len(res.Files) != 1 {
		t.Fatalf("recovery commit = %+v, %v", res, err)
	}
	if st, _ := v.Status(); len(st) != 0 {
		t.Fatalf("still dirty: %+v", st)
	}
}

func TestLockTimeoutAndRelease(t *testing.T) {
	v := newVault(t)
	other, err := vault.Open(v.Root, schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	other.LockTimeout = 100 * time.Millisecond
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := v.Update(context.Background(), vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error {
			close(entered)
			<-release
			return nil
		})
		done <- err
	}()
	<-entered
	start := time.Now()
	_, err = other.Update(context.Background(), vault.CommitMeta{}, func(*vault.Tx) error { return nil })
	if !errors.Is(err, vault.ErrLocked) || !strings.Contains(err.Error(), "held by pid") {
		t.Fatalf("err = %v, want ErrLocked naming the holder", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond || waited > 2*time.Second {
		t.Fatalf("waited %v for a 100ms timeout", waited)
	}
	if h := other.LockHolder(); h == "" {
		t.Fatal("LockHolder is empty while the lock is held")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := other.Update(context.Background(), vault.CommitMeta{}, func(*vault.Tx) error { return nil }); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

func TestUnsafePaths(t *testing.T) {
	v := newVault(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(v.Root, "events")); err != nil {
		t.Fatal(err)
	}
	m := schema.New(schema.KindEvent, "x", time.Now())
	m.URI = schema.URI{Scope: schema.ScopeProject, Path: "events/x"}
	_, err := v.Create(context.Background(), m, vault.CommitMeta{})
	if !errors.Is(err, vault.ErrUnsafePath) {
		t.Fatalf("write through an outward symlink: %v", err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("---\nkind: event\ntitle: s\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Read(schema.URI{Scope: schema.ScopeProject, Path: "events/secret"}); !errors.Is(err, vault.ErrUnsafePath) {
		t.Fatalf("read through an outward symlink: %v", err)
	}
	if _, err := v.PathOf(schema.URI{Scope: schema.ScopeUser, Path: "a/b"}); !errors.Is(err, schema.ErrBadURI) {
		t.Fatalf("user URI in the project vault: %v", err)
	}
}

func TestInitIsIdempotentAndRepairs(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	ctx := context.Background()
	first, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir})
	if err != nil || first.Commit == "" || !first.CreatedRepo {
		t.Fatalf("first init = %+v, %v", first, err)
	}
	second, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir})
	if err != nil || second.Commit != "" || second.CreatedRepo || len(second.CreatedFiles) > 0 {
		t.Fatalf("second init changed something: %+v, %v", second, err)
	}
	// A lost .gitignore is restored and committed.
	root := filepath.Join(dir, vault.DirName)
	if err := os.Remove(filepath.Join(root, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	third, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir})
	if err != nil || len(third.CreatedFiles) != 1 {
		t.Fatalf("repair init = %+v, %v", third, err)
	}
	if _, err := vault.Open(t.TempDir(), schema.ScopeProject); !errors.Is(err, vault.ErrNotVault) {
		t.Fatalf("open of an empty dir: %v", err)
	}
}

// Head's fast path agrees with go-git, for loose and packed refs.
func TestHeadFastPath(t *testing.T) {
	v := newVault(t)
	remember(t, v, "events/a", "A")
	want, err := v.ResolveCommit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := v.Head(); got != want {
		t.Fatalf("loose ref: %s, want %s", got, want)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if out, err := exec.Command("git", "-C", v.Root, "pack-refs", "--all").CombinedOutput(); err != nil {
		t.Fatalf("pack-refs: %v %s", err, out)
	}
	if got, _ := v.Head(); got != want {
		t.Fatalf("packed ref: %s, want %s", got, want)
	}
	remember(t, v, "events/b", "B")
	after, _ := v.ResolveCommit("HEAD")
	if got, _ := v.Head(); got != after || after == want {
		t.Fatalf("after a commit on a packed ref: %s, want %s", got, after)
	}
}
