package vault

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// indexDrift is a path whose git index entry would make a plain `git
// commit` in the vault change history behind cairn's back: it differs from
// HEAD and from the work tree, or is unmerged. An entry that differs from
// HEAD but matches the work tree is a change someone staged on purpose
// with `git add`, and is left alone.
type indexDrift struct {
	rel   string
	head  plumbing.Hash // zero when HEAD lacks the file
	index plumbing.Hash // zero when the index lacks it
}

func (d indexDrift) String() string {
	switch {
	case d.index.IsZero():
		return d.rel + " (committed, missing from the index)"
	case d.head.IsZero():
		return d.rel + " (staged, not in HEAD nor on disk)"
	default:
		return d.rel + " (an older or other version staged)"
	}
}

// checkIndex compares the git index with HEAD and the work tree. A
// missing or unreadable index is reported as one drift at path "".
func (v *Vault) checkIndex(repo *git.Repository) ([]indexDrift, error) {
	head, err := readHead(repo)
	if err != nil {
		return nil, err
	}
	var hc *object.Commit
	if !head.commit.IsZero() {
		if hc, err = object.GetCommit(repo.Storer, head.commit); err != nil {
			return nil, err
		}
	}
	want, err := treeSnapshot(repo, hc)
	if err != nil {
		return nil, err
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return []indexDrift{{rel: ""}}, nil
	}
	have := map[string]plumbing.Hash{}
	unmerged := map[string]bool{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			unmerged[e.Name] = true
			continue
		}
		have[e.Name] = e.Hash
	}
	var out []indexDrift
	check := func(rel string) {
		h, i := want[rel], have[rel]
		if h == i && !unmerged[rel] {
			return
		}
		if !unmerged[rel] {
			w, err := worktreeHash(filepath.Join(v.Root, filepath.FromSlash(rel)))
			if err == nil && w == i {
				return // staged on purpose
			}
		}
		out = append(out, indexDrift{rel: rel, head: h, index: i})
	}
	for rel := range want {
		check(rel)
	}
	for rel := range have {
		if _, ok := want[rel]; !ok {
			check(rel)
		}
	}
	for rel := range unmerged {
		if _, ok := want[rel]; !ok {
			if _, ok := have[rel]; !ok {
				check(rel)
			}
		}
	}
	slices.SortFunc(out, func(a, b indexDrift) int {
		switch {
		case a.rel < b.rel:
			return -1
		case a.rel > b.rel:
			return 1
		}
		return 0
	})
	return out, nil
}

// repairIndex makes every drifting entry of the git index match HEAD
// again, with no stat data so git re-reads those files. It returns the
// paths it repaired.
func (v *Vault) repairIndex(repo *git.Repository) ([]indexDrift, error) {
	drift, err := v.checkIndex(repo)
	if err != nil || len(drift) == 0 {
		return nil, err
	}
	head, err := readHead(repo)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(v.GitDir, "index")
	if drift[0].rel == "" {
		if head.tree.IsZero() {
			return drift, nil
		}
		return drift, v.rebuildIndex(repo, head.tree, nil)
	}
	entries := make([]indexEntry, 0, len(drift))
	for _, d := range drift {
		entries = append(entries, indexEntry{name: d.rel, hash: d.head})
	}
	if head.tree.IsZero() {
		return drift, nil
	}
	return drift, v.patchIndexFile(repo, path, head.tree, entries)
}

// RepairReport says what Repair fixed.
type RepairReport struct {
	Finished string   `json:"finished_commit,omitempty"` // an interrupted commit that was completed
	Void     string   `json:"abandoned_commit,omitempty"`
	Index    []string `json:"index_repaired,omitempty"`
	Temps    []string `json:"temp_files_removed,omitempty"`
}

// Any reports whether anything was repaired.
func (r RepairReport) Any() bool {
	return r.Finished != "" || r.Void != "" || len(r.Index) > 0 || len(r.Temps) > 0
}

// Repair brings the derived state of the vault back in line with its
// history, under the write lock: it finishes a commit a killed writer left
// half done, makes the git index agree with HEAD, and removes the temp
// files of killed writers. It never changes a memory file's content except
// to finish a commit that was already made. It waits at most a second for
// the lock: a vault another writer holds is being recovered by that
// writer, and Repair then fails with ErrLocked.
func (v *Vault) Repair(ctx context.Context) (RepairReport, error) {
	var rep RepairReport
	repo, err := v.Repo()
	if err != nil {
		return rep, err
	}
	wait := v.LockTimeout
	if wait <= 0 || wait > time.Second {
		wait = time.Second
	}
	lock, err := v.acquireWithin(ctx, wait)
	if err != nil {
		return rep, err
	}
	defer lock.release()
	rec, err := v.recoverLocked()
	rep.Finished, rep.Void, rep.Temps = rec.Finished, rec.Void, rec.Temps
	if err != nil {
		return rep, err
	}
	drift, err := v.repairIndex(repo)
	for _, d := range drift {
		rep.Index = append(rep.Index, d.String())
	}
	if err != nil {
		return rep, fmt.Errorf("repair the git index: %w", err)
	}
	rep.Temps = append(rep.Temps, v.removeWorkTemps()...)
	return rep, nil
}

// removeWorkTemps removes temp files of killed writers anywhere in the
// work tree (the cache has its own). Callers hold the write lock.
func (v *Vault) removeWorkTemps() []string {
	var dirs []string
	_ = v.walkDirs(func(dir string) { dirs = append(dirs, dir) })
	return v.removeTemps(dirs...)
}

// walkDirs visits the work tree's directories that belong in history
// (not .git, .cache or other dot directories).
func (v *Vault) walkDirs(fn func(dir string)) error {
	return filepath.WalkDir(v.Root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if path != v.Root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		fn(path)
		return nil
	})
}
