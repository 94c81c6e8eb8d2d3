package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// PurgeOptions says what to remove from every commit of the history.
type PurgeOptions struct {
	Paths   []string       // vault-relative files to remove everywhere
	Pattern *regexp.Regexp // text to replace everywhere: files, commit messages
	// Replacement replaces Pattern matches; default "[PURGED]".
	Replacement string
}

// PurgeReport is what a purge rewrote.
type PurgeReport struct {
	Commits    int    `json:"commits_rewritten"`
	Blobs      int    `json:"file_versions_changed"`
	Messages   int    `json:"messages_changed"`
	OldHead    string `json:"old_head"`
	NewHead    string `json:"new_head"`
	Backup     string `json:"backup_ref"`
	WorkFiles  int    `json:"work_tree_files_changed"`
	Branch     string `json:"branch"`
	ChangedAny bool   `json:"changed"`
}

// Purge rewrites the vault's whole history so the given files or text
// appear nowhere in it. The old history stays reachable from a backup ref
// until the user deletes it; clones and remotes keep theirs until they are
// replaced (see the report's instructions).
func (v *Vault) Purge(ctx context.Context, o PurgeOptions) (*PurgeReport, error) {
	if len(o.Paths) == 0 && o.Pattern == nil {
		return nil, errors.New("purge needs files or a pattern")
	}
	if o.Replacement == "" {
		o.Replacement = "[PURGED]"
	}
	lock, err := v.lockForWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	head, err := readHead(repo)
	if err != nil {
		return nil, err
	}
	if head.commit.IsZero() {
		return nil, fmt.Errorf("%w: the vault has no history", ErrNotFound)
	}
	rep := &PurgeReport{OldHead: head.commit.String(), Branch: head.ref.Short()}
	drop := map[string]bool{}
	for _, p := range o.Paths {
		drop[p] = true
	}
	rw := &rewriter{repo: repo, drop: drop, o: o, trees: map[string]plumbing.Hash{}, blobs: map[plumbing.Hash]plumbing.Hash{},
		commits: map[plumbing.Hash]plumbing.Hash{}, rep: rep}
	newHead, err := rw.commit(ctx, head.commit)
	if err != nil {
		return nil, err
	}
	rep.NewHead = newHead.String()
	rep.ChangedAny = newHead != head.commit
	if !rep.ChangedAny {
		return rep, nil
	}
	backup := plumbing.ReferenceName(fmt.Sprintf("refs/cairn/backup/purge-%d", v.now().Unix()))
	if err := repo.Storer.SetReference(plumbing.NewHashReference(backup, head.commit)); err != nil {
		return nil, err
	}
	rep.Backup = backup.String()
	nc, err := object.GetCommit(repo.Storer, newHead)
	if err != nil {
		return nil, err
	}
	moves, err := diffTrees(repo.Storer, head.tree, nc.TreeHash, "")
	if err != nil {
		return nil, err
	}
	if err := v.advance(repo, head, newHead, nc.TreeHash, moves, nil, false); err != nil {
		return rep, err
	}
	// Files with uncommitted edits, and the journal, hold the text too.
	n, err := v.purgeWorkTree(o, drop)
	rep.WorkFiles = len(moves) + n
	return rep, err
}

type rewriter struct {
	repo    *git.Repository
	drop    map[string]bool
	o       PurgeOptions
	trees   map[string]plumbing.Hash // by tree hash and directory: drops are per path
	blobs   map[plumbing.Hash]plumbing.Hash
	commits map[plumbing.Hash]plumbing.Hash
	rep     *PurgeReport
}

// commit rewrites a commit after its parents, iteratively so long
// histories do not exhaust the stack.
func (rw *rewriter) commit(ctx context.Context, h plumbing.Hash) (plumbing.Hash, error) {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return plumbing.ZeroHash, err
		}
		cur := stack[len(stack)-1]
		if _, done := rw.commits[cur]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		c, err := object.GetCommit(rw.repo.Storer, cur)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		pending := false
		for _, p := range c.ParentHashes {
			if _, done := rw.commits[p]; !done {
				stack = append(stack, p)
				pending = true
			}
		}
		if pending {
			continue
		}
		stack = stack[:len(stack)-1]
		tree, err := rw.tree(c.TreeHash, "")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		nc := &object.Commit{Author: c.Author, Committer: c.Committer, Message: c.Message, TreeHash: tree}
		if rw.o.Pattern != nil && rw.o.Pattern.MatchString(c.Message) {
			nc.Message = rw.o.Pattern.ReplaceAllString(c.Message, rw.o.Replacement)
			rw.rep.Messages++
		}
		changed := tree != c.TreeHash || nc.Message != c.Message
		for _, p := range c.ParentHashes {
			np := rw.commits[p]
			nc.ParentHashes = append(nc.ParentHashes, np)
			changed = changed || np != p
		}
		if !changed {
			rw.commits[cur] = cur
			continue
		}
		nh, err := storeCommit(rw.repo.Storer, nc)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		rw.commits[cur] = nh
		rw.rep.Commits++
	}
	return rw.commits[h], nil
}

func (rw *rewriter) tree(h plumbing.Hash, dir string) (plumbing.Hash, error) {
	key := h.String() + "\x00" + dir
	if nh, ok := rw.trees[key]; ok {
		return nh, nil
	}
	t, err := object.GetTree(rw.repo.Storer, h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	out := &object.Tree{}
	changed := false
	for _, e := range t.Entries {
		p := path.Join(dir, e.Name)
		switch {
		case e.Mode == filemode.Dir:
			nh, err := rw.tree(e.Hash, p)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			sub, err := object.GetTree(rw.repo.Storer, nh)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if len(sub.Entries) == 0 {
				changed = true
				continue
			}
			changed = changed || nh != e.Hash
			e.Hash = nh
		case rw.drop[p]:
			changed = true
			continue
		case rw.o.Pattern != nil:
			nh, err := rw.blob(e.Hash)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			changed = changed || nh != e.Hash
			e.Hash = nh
		}
		out.Entries = append(out.Entries, e)
	}
	if !changed {
		rw.trees[key] = h
		return h, nil
	}
	nh, err := storeTree(rw.repo.Storer, out)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rw.trees[key] = nh
	return nh, nil
}

func (rw *rewriter) blob(h plumbing.Hash) (plumbing.Hash, error) {
	if nh, ok := rw.blobs[h]; ok {
		return nh, nil
	}
	data, err := blobBytes(rw.repo, h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if !rw.o.Pattern.Match(data) {
		rw.blobs[h] = h
		return h, nil
	}
	nh, err := storeBlob(rw.repo.Storer, rw.o.Pattern.ReplaceAll(data, []byte(rw.o.Replacement)))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	rw.blobs[h] = nh
	rw.rep.Blobs++
	return nh, nil
}

// purgeWorkTree applies the purge to the files on disk too.
func (v *Vault) purgeWorkTree(o PurgeOptions, drop map[string]bool) (int, error) {
	n := 0
	for p := range drop {
		if err := os.Remove(filepath.Join(v.Root, filepath.FromSlash(p))); err == nil {
			n++
		}
	}
	if o.Pattern == nil {
		return n, nil
	}
	err := filepath.WalkDir(v.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != v.Root && strings.HasPrefix(d.Name(), ".") && d.Name() != ".journal" {
				return filepath.SkipDir // .git, .cache
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || !o.Pattern.Match(data) {
			return err
		}
		n++
		return writeFileAtomic(p, o.Pattern.ReplaceAll(data, []byte(o.Replacement)), 0o644)
	})
	return n, err
}
