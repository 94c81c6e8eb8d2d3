package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Every commit adds loose objects (the memory's blob, the trees above it,
// the commit): 10k memories leave over 10k small files in .git/objects,
// most of the vault's size on disk, and a sync pushes them one by one.
// Packing gathers them into one delta-compressed pack, as git gc does. It
// runs off the hooks' critical path: from the detached finalizer when the
// loose objects pass a threshold, and from cairn gc.

// LooseThreshold is how many loose objects PackIfNeeded tolerates (git's
// gc.auto is 6700; a memory vault's objects are smaller).
const LooseThreshold = 1024

// EstimateLoose estimates the loose objects the way git gc --auto does:
// objects spread evenly over the 256 fan-out directories, so one of them
// times 256 is near the total, at the cost of one directory listing.
func (v *Vault) EstimateLoose() int {
	es, err := os.ReadDir(filepath.Join(v.GitDir, "objects", "17"))
	if err != nil {
		return 0
	}
	return len(es) * 256
}

// PackReport says what PackObjects did.
type PackReport struct {
	LooseBefore int `json:"loose_before"`
	LooseAfter  int `json:"loose_after"`
}

// PackIfNeeded packs when EstimateLoose passes LooseThreshold.
func (v *Vault) PackIfNeeded(ctx context.Context) (*PackReport, error) {
	if v.EstimateLoose() < LooseThreshold {
		return nil, nil
	}
	return v.PackObjects(ctx)
}

// PackObjects writes every object reachable from a ref into one pack and
// removes the loose copies and the older packs, under the write lock so no
// commit is under way. Objects no ref reaches stay loose. Reads of the
// search paths never read git objects; a history command running at that
// moment may need to retry.
func (v *Vault) PackObjects(ctx context.Context) (*PackReport, error) {
	lock, err := v.lockForWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	rep := &PackReport{LooseBefore: v.countLoose()}
	if rep.LooseBefore == 0 {
		return rep, nil
	}
	st := &durablePacks{Storage: filesystem.NewStorageWithOptions(osfs.New(v.GitDir), cache.NewObjectLRUDefault(), filesystem.Options{}), dir: filepath.Join(v.GitDir, "objects", "pack")}
	repo, err := git.Open(st, osfs.New(v.Root))
	if err != nil {
		return nil, err
	}
	if err := repo.RepackObjects(&git.RepackConfig{}); err != nil {
		return nil, fmt.Errorf("pack git objects in %s: %w", v.GitDir, err)
	}
	if err := st.sync(); err != nil {
		return nil, err
	}
	rep.LooseAfter = v.countLoose()
	return rep, nil
}

// durablePacks makes the new pack durable before the first loose object
// it replaces is deleted: go-git writes packs without fsync, and a power
// loss must not leave neither the loose object nor a whole pack.
type durablePacks struct {
	*filesystem.Storage
	dir    string
	synced bool
}

func (s *durablePacks) DeleteLooseObject(h plumbing.Hash) error {
	if err := s.sync(); err != nil {
		return err
	}
	return s.Storage.DeleteLooseObject(h)
}

func (s *durablePacks) sync() error {
	if s.synced {
		return nil
	}
	es, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range es {
		if e.Type().IsRegular() {
			// Windows flushes only handles open for writing, which a
			// read-only pack refuses; there the rename is what it gets.
			if err := syncFile(filepath.Join(s.dir, e.Name())); err != nil && runtime.GOOS != "windows" {
				return fmt.Errorf("sync %s: %w", e.Name(), err)
			}
		}
	}
	if err := syncDir(s.dir); err != nil {
		return err
	}
	s.synced = true
	return nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func (v *Vault) countLoose() int {
	n := 0
	dirs, _ := os.ReadDir(filepath.Join(v.GitDir, "objects"))
	for _, d := range dirs {
		if d.IsDir() && len(d.Name()) == 2 {
			es, _ := os.ReadDir(filepath.Join(v.GitDir, "objects", d.Name()))
			n += len(es)
		}
	}
	return n
}
