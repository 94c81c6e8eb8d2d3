package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// A commit touches three things that cannot change together: the work
// tree, the branch ref and the git index. advance is the one place that
// moves them, and it makes the move restartable. It first records where
// the branch goes in <git dir>/cairn-pending, then writes the files, moves
// the ref and patches the index, and only then drops the record. A process
// killed anywhere in between leaves the record behind, and the next writer
// (or doctor) finishes the move under the lock before it does anything
// else: the work tree, the index and HEAD end up agreeing and no committed
// memory is lost or reverted by a later plain `git commit`.

const pendingName = "cairn-pending"

// pendingMove is a recorded move of a branch from one commit to another.
type pendingMove struct {
	ref      plumbing.ReferenceName
	from, to plumbing.Hash // from is zero on an unborn branch
}

func (p pendingMove) encode() []byte {
	return fmt.Appendf(nil, "%s %s %s\n", p.ref, p.from, p.to)
}

func (v *Vault) pendingPath() string { return filepath.Join(v.GitDir, pendingName) }

// readPending returns the recorded move, or nil when there is none. A
// record that does not parse was cut short before it was renamed into
// place, which cannot happen, or written by someone else: it is dropped.
func (v *Vault) readPending() (*pendingMove, error) {
	data, err := os.ReadFile(v.pendingPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || !isHash(f[1]) || !isHash(f[2]) || !strings.HasPrefix(f[0], "refs/") {
		return nil, nil
	}
	return &pendingMove{ref: plumbing.ReferenceName(f[0]), from: plumbing.NewHash(f[1]), to: plumbing.NewHash(f[2])}, nil
}

func (v *Vault) clearPending() error {
	if err := os.Remove(v.pendingPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return syncDir(v.GitDir)
}

// move is one file a commit changes: its blob before and after (zero when
// absent).
type move struct {
	rel      string
	from, to plumbing.Hash
}

// advance moves head's branch to commit, whose tree is tree, bringing the
// work tree and the git index along for the changed files. content holds
// the new bytes of changed files when the caller has them; the others are
// read from the object store. force writes every changed file; otherwise
// a file that holds neither version (an uncommitted hand edit) is kept.
func (v *Vault) advance(repo *git.Repository, head headState, commit, tree plumbing.Hash, moves []move, content map[string][]byte, force bool) error {
	p := pendingMove{ref: head.ref, from: head.commit, to: commit}
	if err := writeFileAtomic(v.pendingPath(), p.encode(), 0o644); err != nil {
		return fmt.Errorf("record the commit in progress: %w", err)
	}
	clean, err := v.checkout(repo, moves, content, force)
	if err != nil {
		// Nothing is committed yet: put back what was written, so the
		// work tree is as it was, and forget the move.
		v.rollback(repo, moves, clean)
		if cerr := v.clearPending(); cerr != nil {
			return errors.Join(err, cerr)
		}
		return err
	}
	if err := v.setRef(head.ref, commit); err != nil {
		v.rollback(repo, moves, clean)
		if cerr := v.clearPending(); cerr != nil {
			return errors.Join(err, cerr)
		}
		return fmt.Errorf("update %s: %w", head.ref, err)
	}
	if err := v.updateIndex(repo, tree, moves, clean); err != nil {
		// The commit stands and the record stays: the next writer or
		// `cairn doctor` retries the index.
		return fmt.Errorf("commit %s made, but updating the git index failed (`cairn doctor` repairs it): %w", commit.String()[:12], err)
	}
	return v.clearPending()
}

// checkout writes the new version of every moved file. It returns the
// files that now hold exactly their new version, whose stat data the
// index may record.
func (v *Vault) checkout(repo *git.Repository, moves []move, content map[string][]byte, force bool) (map[string]bool, error) {
	clean := map[string]bool{}
	for _, m := range moves {
		path := filepath.Join(v.Root, filepath.FromSlash(m.rel))
		if !force {
			cur, err := worktreeHash(path)
			if err != nil {
				return clean, err
			}
			if cur == m.to {
				clean[m.rel] = true
				continue
			}
			if cur != m.from {
				continue // edited by hand since: keep the edit
			}
		}
		if m.to.IsZero() {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return clean, fmt.Errorf("remove %s: %w", m.rel, err)
			} else if err == nil {
				_ = syncDir(filepath.Dir(path))
				removeEmptyDirs(v.Root, filepath.Dir(path))
			}
			clean[m.rel] = true
			continue
		}
		data, ok := content[m.rel]
		if !ok {
			var err error
			if data, err = blobBytes(repo, m.to); err != nil {
				return clean, fmt.Errorf("read %s: %w", m.rel, err)
			}
		}
		if err := writeIfChanged(path, data); err != nil {
			return clean, err
		}
		clean[m.rel] = true
	}
	return clean, nil
}

// rollback restores the old version of files checkout wrote.
func (v *Vault) rollback(repo *git.Repository, moves []move, written map[string]bool) {
	var back []move
	for _, m := range moves {
		if written[m.rel] {
			back = append(back, move{rel: m.rel, from: m.to, to: m.from})
		}
	}
	_, _ = v.checkout(repo, back, nil, false)
}

// worktreeHash is the blob hash of a work-tree file, zero when it is absent.
func worktreeHash(path string) (plumbing.Hash, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if !fi.Mode().IsRegular() {
		return plumbing.ZeroHash, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return blobHash(data), nil
}

// lockForWrite takes the write lock and finishes what a writer killed
// before us left half done, so every write starts from a consistent vault.
func (v *Vault) lockForWrite(ctx context.Context) (*writeLock, error) {
	lock, err := v.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := v.recoverLocked(); err != nil {
		lock.release()
		return nil, fmt.Errorf("finish an interrupted write in %s: %w", v.Root, err)
	}
	return lock, nil
}

// Recovery says what recoverLocked found and did.
type Recovery struct {
	Finished string   // the commit a recorded move was finished to, if any
	Void     string   // a recorded move abandoned because HEAD was moved by hand
	Temps    []string // temp files of killed writers that were removed
}

// recoverLocked finishes a recorded move and removes the temp files a
// killed writer left in the git directory. The caller holds the lock.
func (v *Vault) recoverLocked() (Recovery, error) {
	var rec Recovery
	p, err := v.readPending()
	if err != nil {
		return rec, err
	}
	rec.Temps = v.removeTemps(v.GitDir, filepath.Join(v.GitDir, "refs", "heads"))
	if p == nil {
		if _, err := os.Stat(v.pendingPath()); err == nil {
			// Unreadable record: nothing can be finished from it.
			return rec, v.clearPending()
		}
		return rec, nil
	}
	repo, err := v.Repo()
	if err != nil {
		return rec, err
	}
	head, err := readHead(repo)
	if err != nil {
		return rec, err
	}
	fromTree, toTree := plumbing.ZeroHash, plumbing.ZeroHash
	if !p.from.IsZero() {
		c, err := object.GetCommit(repo.Storer, p.from)
		if err != nil {
			return rec, v.abandon(repo, p, &rec)
		}
		fromTree = c.TreeHash
	}
	to, err := object.GetCommit(repo.Storer, p.to)
	if err != nil {
		// The new commit never reached the object store: there is nothing
		// to finish, and the files it would have written stay as edits.
		return rec, v.abandon(repo, p, &rec)
	}
	toTree = to.TreeHash
	moves, err := diffTrees(repo.Storer, fromTree, toTree, "")
	if err != nil {
		return rec, err
	}
	switch {
	case head.ref != p.ref, head.commit == p.from && v.refWrittenSince(p.ref):
		// Someone moved the branch (a reset back to where we started
		// looks the same, but the ref was written after the record).
		return rec, v.abandon(repo, p, &rec)
	case head.commit == p.from:
		// Killed before the ref moved: the commit is complete, so finish
		// it rather than lose what it holds.
		clean, err := v.checkout(repo, moves, nil, false)
		if err != nil {
			return rec, err
		}
		if err := v.setRef(p.ref, p.to); err != nil {
			return rec, err
		}
		if err := v.updateIndex(repo, toTree, moves, clean); err != nil {
			return rec, err
		}
	case head.commit == p.to:
		clean, err := v.checkout(repo, moves, nil, false)
		if err != nil {
			return rec, err
		}
		if err := v.updateIndex(repo, toTree, moves, clean); err != nil {
			return rec, err
		}
	default:
		return rec, v.abandon(repo, p, &rec)
	}
	for _, m := range moves {
		dir := filepath.Dir(filepath.Join(v.Root, filepath.FromSlash(m.rel)))
		rec.Temps = append(rec.Temps, v.removeTemps(dir)...)
	}
	rec.Finished = p.to.String()
	return rec, v.clearPending()
}

// refWrittenSince reports whether ref was written after the pending
// record, which no cairn writer does before it moves the ref itself.
func (v *Vault) refWrittenSince(ref plumbing.ReferenceName) bool {
	rec, err := os.Stat(v.pendingPath())
	if err != nil {
		return false
	}
	fi, err := os.Stat(filepath.Join(v.GitDir, filepath.FromSlash(ref.String())))
	if err != nil {
		if fi, err = os.Stat(filepath.Join(v.GitDir, "packed-refs")); err != nil {
			return false
		}
	}
	return fi.ModTime().After(rec.ModTime())
}

// abandon drops a recorded move that can no longer be finished (HEAD was
// moved by hand, or the commit is missing) and makes the index agree with
// whatever HEAD is now.
func (v *Vault) abandon(repo *git.Repository, p *pendingMove, rec *Recovery) error {
	rec.Void = p.to.String()
	if _, err := v.repairIndex(repo); err != nil {
		return err
	}
	return v.clearPending()
}

// removeTemps deletes the temp files of atomic writes in dirs. Only call
// it under the write lock: every writer of these directories holds it, so
// a temp file there belongs to a writer that died.
func (v *Vault) removeTemps(dirs ...string) []string {
	var out []string
	for _, dir := range dirs {
		es, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range es {
			if strings.HasPrefix(e.Name(), tmpPrefix) && e.Type().IsRegular() {
				p := filepath.Join(dir, e.Name())
				if os.Remove(p) == nil {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// diffTrees lists the files that differ between two trees (zero: empty),
// skipping subtrees that are equal, so the cost follows the change.
func diffTrees(st storer.EncodedObjectStorer, a, b plumbing.Hash, prefix string) ([]move, error) {
	if a == b {
		return nil, nil
	}
	ea, err := treeEntries(st, a)
	if err != nil {
		return nil, err
	}
	eb, err := treeEntries(st, b)
	if err != nil {
		return nil, err
	}
	var out []move
	names := map[string]bool{}
	for n := range ea {
		names[n] = true
	}
	for n := range eb {
		names[n] = true
	}
	for n := range names {
		x, y := ea[n], eb[n]
		rel := n
		if prefix != "" {
			rel = prefix + "/" + n
		}
		xd, yd := x.dir, y.dir
		switch {
		case x.hash == y.hash && xd == yd:
			continue
		case xd || yd:
			var sa, sb plumbing.Hash
			if xd {
				sa = x.hash
			}
			if yd {
				sb = y.hash
			}
			sub, err := diffTrees(st, sa, sb, rel)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			// A file replaced by a directory (or the reverse) moves too.
			if !xd && !x.hash.IsZero() {
				out = append(out, move{rel: rel, from: x.hash})
			}
			if !yd && !y.hash.IsZero() {
				out = append(out, move{rel: rel, to: y.hash})
			}
		default:
			out = append(out, move{rel: rel, from: x.hash, to: y.hash})
		}
	}
	slices.SortFunc(out, func(a, b move) int { return strings.Compare(a.rel, b.rel) })
	return out, nil
}

type treeEntry struct {
	hash plumbing.Hash
	dir  bool
}

func treeEntries(st storer.EncodedObjectStorer, h plumbing.Hash) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	if h.IsZero() {
		return out, nil
	}
	t, err := object.GetTree(st, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	for _, e := range t.Entries {
		if !e.Mode.IsFile() && e.Mode != filemode.Dir {
			continue // submodules and the like are not cairn's
		}
		out[e.Name] = treeEntry{hash: e.Hash, dir: e.Mode == filemode.Dir}
	}
	return out, nil
}

// movesFrom turns tree changes into moves, reading the old hashes from
// the tree at root.
func movesFrom(st storer.EncodedObjectStorer, root plumbing.Hash, changes []treeChange) ([]move, error) {
	var t *object.Tree
	if !root.IsZero() {
		var err error
		if t, err = object.GetTree(st, root); err != nil {
			return nil, fmt.Errorf("read tree %s: %w", root, err)
		}
	}
	out := make([]move, 0, len(changes))
	for _, c := range changes {
		out = append(out, move{rel: c.rel, from: headHash(t, c.rel), to: c.hash})
	}
	return out, nil
}
