package vault

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// headState is where HEAD points: the ref a commit advances and the commit
// and tree it holds now (zero hashes on an unborn branch).
type headState struct {
	ref    plumbing.ReferenceName
	commit plumbing.Hash
	tree   plumbing.Hash
}

func readHead(repo *git.Repository) (headState, error) {
	h, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return headState{}, fmt.Errorf("read HEAD: %w", err)
	}
	st := headState{ref: plumbing.HEAD}
	if h.Type() == plumbing.SymbolicReference {
		st.ref = h.Target()
		r, err := repo.Storer.Reference(h.Target())
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return st, nil // unborn branch: first commit
		}
		if err != nil {
			return st, fmt.Errorf("read %s: %w", h.Target(), err)
		}
		h = r
	}
	st.commit = h.Hash()
	c, err := object.GetCommit(repo.Storer, st.commit)
	if err != nil {
		return st, fmt.Errorf("read HEAD commit %s: %w", st.commit, err)
	}
	st.tree = c.TreeHash
	return st, nil
}

// blobHash is the git object id of data as a blob.
func blobHash(data []byte) plumbing.Hash {
	return plumbing.ComputeHash(plumbing.BlobObject, data)
}

func storeBlob(st storer.EncodedObjectStorer, data []byte) (plumbing.Hash, error) {
	h := blobHash(data)
	if st.HasEncodedObject(h) == nil {
		return h, nil
	}
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return h, err
	}
	if _, err := w.Write(data); err != nil {
		return h, err
	}
	if err := w.Close(); err != nil {
		return h, err
	}
	return st.SetEncodedObject(obj)
}

// treeChange sets (hash non-zero) or removes (hash zero) one file.
type treeChange struct {
	rel  string
	hash plumbing.Hash
}

// applyTree returns the tree that results from applying changes to the tree
// at root. Only trees on the changed paths are read and rewritten, so the
// cost follows the directories touched, not the size of the vault.
func applyTree(st storer.EncodedObjectStorer, root plumbing.Hash, changes []treeChange) (plumbing.Hash, error) {
	h, _, err := applySubtree(st, root, changes)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if h.IsZero() {
		// An empty vault still needs a tree object to commit.
		return storeTree(st, &object.Tree{})
	}
	return h, nil
}

func applySubtree(st storer.EncodedObjectStorer, treeHash plumbing.Hash, changes []treeChange) (plumbing.Hash, bool, error) {
	entries := map[string]object.TreeEntry{}
	if !treeHash.IsZero() {
		t, err := object.GetTree(st, treeHash)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s: %w", treeHash, err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = e
		}
	}
	sub := map[string][]treeChange{}
	var subOrder []string
	for _, c := range changes {
		name, rest, nested := strings.Cut(c.rel, "/")
		if !nested {
			if c.hash.IsZero() {
				delete(entries, name)
			} else {
				entries[name] = object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: c.hash}
			}
			continue
		}
		if _, ok := sub[name]; !ok {
			subOrder = append(subOrder, name)
		}
		sub[name] = append(sub[name], treeChange{rel: rest, hash: c.hash})
	}
	for _, name := range subOrder {
		var base plumbing.Hash
		if e, ok := entries[name]; ok && e.Mode == filemode.Dir {
			base = e.Hash
		}
		h, empty, err := applySubtree(st, base, sub[name])
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			delete(entries, name)
		} else {
			entries[name] = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	t := &object.Tree{Entries: make([]object.TreeEntry, 0, len(entries))}
	for _, e := range entries {
		t.Entries = append(t.Entries, e)
	}
	// Git orders tree entries as if directory names ended in "/".
	sortKey := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(t.Entries, func(i, j int) bool { return sortKey(t.Entries[i]) < sortKey(t.Entries[j]) })
	h, err := storeTree(st, t)
	return h, false, err
}

func storeTree(st storer.EncodedObjectStorer, t *object.Tree) (plumbing.Hash, error) {
	obj := st.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	if st.HasEncodedObject(obj.Hash()) == nil {
		return obj.Hash(), nil
	}
	return st.SetEncodedObject(obj)
}

func storeCommit(st storer.EncodedObjectStorer, c *object.Commit) (plumbing.Hash, error) {
	obj := st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

// setRef points ref at h by writing a temp file and renaming it, so that a
// reader never sees the empty file that go-git's truncate-then-write leaves
// for a moment.
func (v *Vault) setRef(ref plumbing.ReferenceName, h plumbing.Hash) error {
	path := filepath.Join(v.GitDir, filepath.FromSlash(ref.String()))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(h.String()+"\n"), 0o644)
}

// updateIndex keeps the vault's git index in step with the commit just
// made, so `git status` in the vault shows only real uncommitted edits.
// Files in clean hold exactly their new version and get their size and
// mtime; the others get no stat data, which makes git re-hash them rather
// than trust stats that may belong to a hand edit. When there is no
// usable index it is rebuilt from the tree.
func (v *Vault) updateIndex(repo *git.Repository, tree plumbing.Hash, moves []move, clean map[string]bool) error {
	path := filepath.Join(v.GitDir, "index")
	var entries []indexEntry
	for _, m := range moves {
		e := indexEntry{name: m.rel, hash: m.to}
		if !m.to.IsZero() && clean[m.rel] {
			if fi, err := os.Stat(filepath.Join(v.Root, filepath.FromSlash(m.rel))); err == nil {
				e.size, e.mtime = uint32(fi.Size()), fi.ModTime()
			}
		}
		entries = append(entries, e)
	}
	return v.patchIndexFile(repo, path, tree, entries)
}

// patchIndexFile applies entries to the index file at path, rebuilding
// it from tree when it is missing or in a format the fast path does not
// handle.
func (v *Vault) patchIndexFile(repo *git.Repository, path string, tree plumbing.Hash, entries []indexEntry) error {
	raw, err := readIndexFile(path)
	if err != nil {
		return err
	}
	if raw != nil {
		if out, err := patchIndex(raw, entries); err == nil {
			return writeFileAtomic(path, out, 0o644)
		} else if !errors.Is(err, errIndexFormat) {
			return err
		}
	}
	return v.rebuildIndex(repo, tree, entries)
}

// rebuildIndex writes a fresh index for tree through go-git's codec, for
// a missing index or a format the fast path does not handle.
func (v *Vault) rebuildIndex(repo *git.Repository, tree plumbing.Hash, written []indexEntry) error {
	stat := map[string]indexEntry{}
	for _, e := range written {
		stat[e.name] = e
	}
	idx := &index.Index{Version: 2}
	t, err := object.GetTree(repo.Storer, tree)
	if err != nil {
		return err
	}
	walker := object.NewTreeWalker(t, true, nil)
	defer walker.Close()
	for {
		name, e, err := walker.Next()
		if err != nil {
			break
		}
		if e.Mode == filemode.Dir {
			continue
		}
		ie := &index.Entry{Name: name, Hash: e.Hash, Mode: e.Mode}
		if s, ok := stat[name]; ok && s.hash == e.Hash {
			ie.Size, ie.ModifiedAt = s.size, s.mtime
		}
		idx.Entries = append(idx.Entries, ie)
	}
	sort.Slice(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		return fmt.Errorf("encode git index: %w", err)
	}
	return writeFileAtomic(filepath.Join(v.GitDir, "index"), buf.Bytes(), 0o644)
}

// signature is who cairn's commits are by: cairn.yaml's author, else the
// user's git identity, else "cairn".
func (v *Vault) signature(repo *git.Repository, when time.Time) object.Signature {
	name, email := v.Config.Author.Name, v.Config.Author.Email
	if name == "" || email == "" {
		if cfg, err := repo.ConfigScoped(gitconfig.GlobalScope); err == nil {
			if name == "" {
				name = cfg.User.Name
			}
			if email == "" {
				email = cfg.User.Email
			}
		}
	}
	if name == "" {
		name = "cairn"
	}
	if email == "" {
		email = "cairn@localhost"
	}
	return object.Signature{Name: name, Email: email, When: when}
}
