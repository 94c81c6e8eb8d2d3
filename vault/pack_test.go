package vault_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Packing moves every committed object into one pack: nothing loose is
// left, every memory and its history still reads, git agrees (fsck, a
// clean status), and commits go on as before, also while it runs.
func TestPackObjects(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	v := newVault(t)
	v.LockTimeout = 30 * time.Second
	var uris []schema.URI
	for i := range 30 {
		uris = append(uris, remember(t, v, fmt.Sprintf("events/e%02d", i), fmt.Sprintf("Event %d", i)))
	}
	before, _ := exec.Command("git", "-C", v.Root, "log", "--format=%H %T").Output()
	// A writer keeps committing while the pack is made.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 10 {
			m := schema.New(schema.KindEvent, fmt.Sprintf("During %d", i), time.Now())
			m.URI = schema.URI{Scope: v.Scope, Path: fmt.Sprintf("events/during-%d", i)}
			if _, err := v.Create(ctx, m, vault.CommitMeta{}); err != nil {
				t.Error(err)
			}
		}
	}()
	rep, err := v.PackObjects(ctx)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rep.LooseBefore < 90 || rep.LooseAfter >= rep.LooseBefore/3 {
		t.Fatalf("report %+v: the loose objects were not packed", rep)
	}
	packs, _ := filepath.Glob(filepath.Join(v.GitDir, "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("%d packs", len(packs))
	}
	// Pack again: what the writer added joins the one pack.
	if rep, err = v.PackObjects(ctx); err != nil || rep.LooseAfter != 0 {
		t.Fatalf("second pack: %+v, %v", rep, err)
	}
	for _, u := range uris {
		if _, err := v.Read(u); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := exec.Command("git", "-C", v.Root, "log", "--format=%H %T").Output()
	if len(after) <= len(before) || string(after[len(after)-len(before):]) != string(before) {
		t.Fatal("history changed")
	}
	remember(t, v, "events/after", "After packing")
	if out, err := exec.Command("git", "-C", v.Root, "status", "--porcelain").CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	gitFsck(t, v.Root)
	if out, err := exec.Command("git", "-C", v.Root, "fsck", "--strict", "--full").CombinedOutput(); err != nil {
		t.Fatalf("git fsck --full: %v\n%s", err, out)
	}
}

func TestPackIfNeededWaitsForTheThreshold(t *testing.T) {
	v := newVault(t)
	remember(t, v, "events/one", "One")
	rep, err := v.PackIfNeeded(context.Background())
	if err != nil || rep != nil {
		t.Fatalf("packed a vault of one memory: %+v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(v.GitDir, "objects", "pack")); err == nil {
		if ps, _ := filepath.Glob(filepath.Join(v.GitDir, "objects", "pack", "*.pack")); len(ps) > 0 {
			t.Fatal("a pack was written")
		}
	}
}
