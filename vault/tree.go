package vault

import (
	"sort"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// TreeNode is a directory or memory in the memory tree.
type TreeNode struct {
	Name     string      `json:"name"`
	URI      string      `json:"uri"`
	Kind     string      `json:"kind,omitempty"`
	Title    string      `json:"title,omitempty"`
	Summary  string      `json:"summary,omitempty"`
	Status   string      `json:"status,omitempty"`
	Error    string      `json:"error,omitempty"`
	Children []*TreeNode `json:"children,omitempty"`
	Count    int         `json:"count,omitempty"` // memories at or under a directory
}

// IsDir reports whether the node is a directory.
func (n *TreeNode) IsDir() bool { return n.Kind == "" && n.Error == "" && n.Children != nil }

// BuildTree arranges listed entries under a root named for the scope and
// path prefix.
func BuildTree(scope schema.Scope, prefix string, entries []Entry) *TreeNode {
	rootURI := schema.Scheme + string(scope)
	if prefix != "" {
		rootURI += "/" + strings.TrimSuffix(prefix, "/")
	}
	root := &TreeNode{Name: rootURI, URI: rootURI, Children: []*TreeNode{}}
	dirs := map[string]*TreeNode{"": root}
	base := strings.TrimSuffix(prefix, "/")
	for _, e := range entries {
		rel := strings.TrimPrefix(strings.TrimPrefix(e.URI.Path, base), "/")
		segs := strings.Split(rel, "/")
		parent, path := root, ""
		for _, seg := range segs[:len(segs)-1] {
			if path == "" {
				path = seg
			} else {
				path += "/" + seg
			}
			d, ok := dirs[path]
			if !ok {
				d = &TreeNode{Name: seg, URI: rootURI + "/" + path, Children: []*TreeNode{}}
				dirs[path] = d
				parent.Children = append(parent.Children, d)
			}
			parent = d
		}
		leaf := &TreeNode{Name: segs[len(segs)-1], URI: e.URI.String()}
		if e.Memory != nil {
			leaf.Kind = string(e.Memory.Kind)
			leaf.Title = e.Memory.Title
			leaf.Summary = e.Memory.L0()
			leaf.Status = string(e.Memory.EffectiveStatus())
		}
		if e.Err != nil {
			leaf.Error = e.Err.Error()
		}
		parent.Children = append(parent.Children, leaf)
	}
	var count func(n *TreeNode) int
	count = func(n *TreeNode) int {
		if n.Children == nil {
			return 1
		}
		sort.SliceStable(n.Children, func(i, j int) bool {
			a, b := n.Children[i], n.Children[j]
			if (a.Children != nil) != (b.Children != nil) {
				return a.Children != nil // directories first
			}
			return a.Name < b.Name
		})
		n.Count = 0
		for _, c := range n.Children {
			n.Count += count(c)
		}
		return n.Count
	}
	count(root)
	return root
}
