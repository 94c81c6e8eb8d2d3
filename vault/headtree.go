package vault

import (
	"path"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// headTrees reads the directories of a commit's tree once. A directory of
// 10k memories is a tree object that takes milliseconds to decode, and
// go-git's Tree.FindEntry decodes a top-level directory again on every
// lookup (its subtree cache only serves deeper paths).
type headTrees struct {
	root *object.Tree
	dirs map[string]*object.Tree // nil: no such directory
}

func newHeadTrees(root *object.Tree) *headTrees {
	return &headTrees{root: root, dirs: map[string]*object.Tree{}}
}

// dir returns the tree of directory d ("" or "." for the root), or nil.
func (h *headTrees) dir(d string) *object.Tree {
	if h.root == nil {
		return nil
	}
	if d == "" || d == "." {
		return h.root
	}
	if t, ok := h.dirs[d]; ok {
		return t
	}
	var t *object.Tree
	if parent := h.dir(path.Dir(d)); parent != nil {
		if e := entryNamed(parent, path.Base(d)); e != nil && e.Mode == filemode.Dir {
			t, _ = parent.Tree(e.Name)
		}
	}
	h.dirs[d] = t
	return t
}

// hash is the blob rel names in the tree, or the zero hash.
func (h *headTrees) hash(rel string) plumbing.Hash {
	if t := h.dir(path.Dir(rel)); t != nil {
		if e := entryNamed(t, path.Base(rel)); e != nil {
			return e.Hash
		}
	}
	return plumbing.ZeroHash
}

func entryNamed(t *object.Tree, name string) *object.TreeEntry {
	for i := range t.Entries {
		if t.Entries[i].Name == name {
			return &t.Entries[i]
		}
	}
	return nil
}
