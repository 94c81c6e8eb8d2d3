package vault

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairnmem/cairn/schema"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// State is how a file differs between two sides.
type State string

// States.
const (
	Added    State = "added"
	Modified State = "modified"
	Deleted  State = "deleted"
)

// FileStatus is one file that differs from HEAD.
type FileStatus struct {
	Path  string      `json:"path"` // vault-relative, slash-separated
	URI   *schema.URI `json:"uri,omitempty"`
	State State       `json:"state"`
	Hash  string      `json:"-"` // work-tree blob hash, "" for deletions
}

// snapshot maps vault-relative paths to blob hashes.
type snapshot map[string]plumbing.Hash

func treeSnapshot(repo *git.Repository, c *object.Commit) (snapshot, error) {
	out := snapshot{}
	if c == nil {
		return out, nil
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			break
		}
		if e.Mode != filemode.Dir && e.Mode != filemode.Submodule {
			out[name] = e.Hash
		}
	}
	return out, nil
}

// workSnapshot hashes the work tree. Files whose size and mtime match the
// git index entry written with them reuse that entry's hash, the same
// stat shortcut git takes; a file changed in the same clock tick as the
// index ("racy") is always hashed.
func (v *Vault) workSnapshot(repo *git.Repository) (snapshot, error) {
	idx, _ := repo.Storer.Index()
	entries := map[string]*index.Entry{}
	if idx != nil {
		for _, e := range idx.Entries {
			entries[e.Name] = e
		}
	}
	ignore := v.ignoreMatcher()
	out := snapshot{}
	err := v.walk(func(rel, path string) {
		if ignore != nil && ignore.Match(strings.Split(rel, "/"), false) {
			return
		}
		fi, err := os.Stat(path)
		if err != nil {
			return
		}
		if e, ok := entries[rel]; ok && idx != nil && !e.ModifiedAt.IsZero() &&
			int64(e.Size) == fi.Size() && e.ModifiedAt.Equal(fi.ModTime()) && fi.ModTime().Before(idx.ModTime) {
			out[rel] = e.Hash
			return
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		out[rel] = blobHash(data)
	})
	return out, err
}

func (v *Vault) ignoreMatcher() gitignore.Matcher {
	data, err := os.ReadFile(filepath.Join(v.Root, ".gitignore"))
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(l, nil))
	}
	return gitignore.NewMatcher(ps)
}

func compareSnapshots(from, to snapshot, scope schema.Scope, prefix string) []FileStatus {
	var out []FileStatus
	add := func(rel string, st State, h plumbing.Hash) {
		if prefix != "" && rel != prefix {
			return
		}
		fs := FileStatus{Path: rel, State: st}
		if !h.IsZero() {
			fs.Hash = h.String()
		}
		if strings.Contains(rel, "/") {
			if u, err := schema.URIFromRelPath(rel, scope); err == nil {
				fs.URI = &u
			}
		}
		out = append(out, fs)
	}
	for rel, h := range to {
		old, ok := from[rel]
		switch {
		case !ok:
			add(rel, Added, h)
		case old != h:
			add(rel, Modified, h)
		}
	}
	for rel := range from {
		if _, ok := to[rel]; !ok {
			add(rel, Deleted, plumbing.ZeroHash)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Status lists the files of the work tree that differ from HEAD: hand
// edits, new files, deletions, and writes a crash left uncommitted.
func (v *Vault) Status() ([]FileStatus, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	var head *object.Commit
	if h, err := readHead(repo); err == nil && !h.commit.IsZero() {
		head, _ = repo.CommitObject(h.commit)
	}
	from, err := treeSnapshot(repo, head)
	if err != nil {
		return nil, err
	}
	to, err := v.workSnapshot(repo)
	if err != nil {
		return nil, err
	}
	return compareSnapshots(from, to, v.Scope, ""), nil
}
