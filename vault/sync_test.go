package vault_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// clone is one machine: a project vault whose remote is the shared bare
// repository.
type clone struct {
	name string
	root string
}

func (c clone) open(t *testing.T) *vault.Vault {
	v, err := vault.Open(c.root, schema.ScopeProject)
	if err != nil {
		t.Error(err)
		return nil
	}
	v.LockTimeout = 30 * time.Second
	return v
}

// TestSyncSimulation: three clones of one bare remote, each with agents
// writing concurrently while a syncer syncs repeatedly, including edits
// of the same memories on every clone. At the end every clone is
// identical, every memory written anywhere exists exactly once, no file
// has conflict markers and git fsck is clean.
func TestSyncSimulation(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to fsck")
	}
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	bare := filepath.Join(dir, "remote.git")
	if _, err := git.PlainInit(bare, true); err != nil {
		t.Fatal(err)
	}
	var clones []clone
	for _, name := range []string{"ana", "ben", "cho"} {
		d := filepath.Join(dir, name)
		if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: d}); err != nil {
			t.Fatal(err)
		}
		c := clone{name: name, root: filepath.Join(d, vault.DirName)}
		v := c.open(t)
		if err := v.AddRemote(vault.Remote{Name: "origin", URL: bare, Branch: "main"}); err != nil {
			t.Fatal(err)
		}
		clones = append(clones, c)
	}
	remote := func(v *vault.Vault) vault.Remote {
		rs, _ := v.Remotes()
		return rs[0]
	}

	const agents, writes = 2, 6
	var wg sync.WaitGroup
	var mu sync.Mutex
	wrote := map[string]bool{} // titles of unique memories
	for _, c := range clones {
		for a := 0; a < agents; a++ {
			wg.Add(1)
			go func(c clone, a int) {
				defer wg.Done()
				v := c.open(t)
				for i := 0; i < writes; i++ {
					title := fmt.Sprintf("Event %s agent %d number %d", c.name, a, i)
					m := schema.New(schema.KindEvent, title, time.Now())
					m.URI = schema.URI{Scope: schema.ScopeProject, Path: "events/" + schema.Slugify(title)}
					m.Body = "Happened on " + c.name + "."
					if _, err := v.Update(ctx, vault.CommitMeta{Session: c.name}, func(tx *vault.Tx) error { return tx.Put(m) }); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					wrote[title] = true
					mu.Unlock()
					// Everyone also edits the same shared memories.
					shared := []struct {
						kind schema.Kind
						path string
					}{{schema.KindPattern, "patterns/team-conventions"}, {schema.KindDecision, "decisions/storage-engine"}}
					s := shared[i%2]
					_, err := v.Update(ctx, vault.CommitMeta{Session: c.name}, func(tx *vault.Tx) error {
						u := schema.URI{Scope: schema.ScopeProject, Path: s.path}
						m, err := tx.Read(u)
						if err != nil {
							m = schema.New(s.kind, "Shared "+s.path, time.Now())
							m.URI = u
						}
						m.Body = strings.TrimSpace(m.Body + "\n\n" + fmt.Sprintf("Note from %s/%d #%d.", c.name, a, i))
						m.Updated = schema.Timestamp(time.Now())
						return tx.Put(m)
					})
					if err != nil {
						t.Error(err)
						return
					}
				}
			}(c, a)
		}
		wg.Add(1)
		go func(c clone) {
			defer wg.Done()
			v := c.open(t)
			for i := 0; i < 4; i++ {
				if _, err := v.Sync(ctx, vault.SyncOptions{Remote: remote(v), Attempts: 20}); err != nil {
					t.Errorf("%s sync: %v", c.name, err)
					return
				}
			}
		}(c)
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// Settle: sync every clone until nothing moves.
	for round := 0; round < 3; round++ {
		for _, c := range clones {
			v := c.open(t)
			if _, err := v.Sync(ctx, vault.SyncOptions{Remote: remote(v), Attempts: 20}); err != nil {
				t.Fatalf("%s final sync: %v", c.name, err)
			}
		}
	}

	var trees []string
	for _, c := range clones {
		out, err := exec.Command("git", "-C", c.root, "rev-parse", "HEAD^{tree}").Output()
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, strings.TrimSpace(string(out)))
		if out, err := exec.Command("git", "-C", c.root, "fsck", "--strict", "--no-dangling").CombinedOutput(); err != nil {
			t.Fatalf("%s fsck: %v\n%s", c.name, err, out)
		}
		if out, _ := exec.Command("git", "-C", c.root, "status", "--porcelain").Output(); len(out) > 0 {
			t.Fatalf("%s work tree differs from its history:\n%s", c.name, out)
		}
	}
	if trees[0] != trees[1] || trees[1] != trees[2] {
		t.Fatalf("clones differ: %v", trees)
	}
	if out, err := exec.Command("git", "-C", bare, "fsck", "--strict", "--no-dangling").CombinedOutput(); err != nil {
		t.Fatalf("remote fsck: %v\n%s", err, out)
	}

	// Every memory exactly once; no conflict markers; every file valid.
	v := clones[0].open(t)
	entries, err := v.List(vault.ListOptions{Parse: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range entries {
		if e.Err != nil {
			t.Fatalf("%s: %v", e.Path, e.Err)
		}
		data, _ := os.ReadFile(e.Path)
		if strings.Contains(string(data), "<<<<<<<") || strings.Contains(string(data), ">>>>>>>") {
			t.Fatalf("conflict markers in %s", e.Path)
		}
		seen[e.Memory.Title]++
	}
	var missing []string
	for title := range wrote {
		if seen[title] != 1 {
			missing = append(missing, fmt.Sprintf("%s ×%d", title, seen[title]))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("memories not present exactly once: %v", missing)
	}
	// The shared pattern merged every clone's notes into one file.
	m, err := v.Read(schema.URI{Scope: schema.ScopeProject, Path: "patterns/team-conventions"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clones {
		if !strings.Contains(m.Body, "Note from "+c.name) {
			t.Fatalf("shared pattern lost %s's notes:\n%s", c.name, m.Body)
		}
	}
	t.Logf("%d memories, shared decision versions: %d", len(entries), countPrefix(entries, "decisions/storage-engine"))
}

func countPrefix(es []vault.Entry, p string) int {
	n := 0
	for _, e := range es {
		if strings.HasPrefix(e.URI.Path, p) {
			n++
		}
	}
	return n
}
