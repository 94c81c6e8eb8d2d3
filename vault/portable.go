package vault

import (
	"fmt"
	"path"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// checkCaseTwins refuses to add a path that differs from a committed or
// staged one only in letter case or Unicode normalization. On Linux both
// files can exist; a clone on macOS or Windows would hold one of them,
// and the other memory would be lost there. A twin this transaction
// removes is a rename, which is fine. Only paths new to HEAD are checked,
// against the entries of their own directories, so the cost follows the
// size of the directories written to.
func (tx *Tx) checkCaseTwins(head *headTrees) error {
	added := map[string]string{} // fold key → new path
	for _, rel := range tx.order {
		if tx.staged[rel] == nil || !head.hash(rel).IsZero() {
			continue
		}
		if twin, ok := head.caseTwin(rel); ok {
			if data, staged := tx.staged[twin]; !staged || data != nil {
				return caseTwinError(rel, twin)
			}
		}
		k := schema.FoldKey(rel)
		if other, ok := added[k]; ok {
			return caseTwinError(rel, other)
		}
		added[k] = rel
	}
	return nil
}

func caseTwinError(rel, twin string) error {
	return fmt.Errorf("%w: %s differs from %s only in letter case; on macOS and Windows they are one file (rename one of them)", schema.ErrBadURI, rel, twin)
}

// caseTwinRejections picks, among hand-made changes, the new files that
// would share a name with a file that stays on a case-insensitive file
// system. They are left uncommitted, each with the reason, so the rest of
// the edits (and every later write) still go through.
func caseTwinRejections(repo *git.Repository, changes []FileStatus) map[string]error {
	root, err := headTreeOf(repo)
	if err != nil || len(changes) == 0 {
		return nil
	}
	head := newHeadTrees(root)
	deleted := map[string]bool{}
	for _, st := range changes {
		if st.State == Deleted {
			deleted[st.Path] = true
		}
	}
	out := map[string]error{}
	added := map[string]string{}
	for _, st := range changes {
		if st.State == Deleted || !head.hash(st.Path).IsZero() {
			continue
		}
		if twin, ok := head.caseTwin(st.Path); ok && !deleted[twin] {
			out[st.Path] = caseTwinError(st.Path, twin)
			continue
		}
		k := schema.FoldKey(st.Path)
		if other, ok := added[k]; ok {
			out[st.Path] = caseTwinError(st.Path, other)
			continue
		}
		added[k] = st.Path
	}
	return out
}

func headTreeOf(repo *git.Repository) (*object.Tree, error) {
	head, err := readHead(repo)
	if err != nil || head.tree.IsZero() {
		return nil, err
	}
	return object.GetTree(repo.Storer, head.tree)
}

// caseTwin finds a path in the tree that names the same file as rel on a
// case-insensitive file system but is spelled differently.
func (h *headTrees) caseTwin(rel string) (string, bool) {
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		dir := path.Join(segs[:i]...)
		t := h.dir(dir)
		if t == nil {
			return "", false
		}
		for j := range t.Entries {
			if name := t.Entries[j].Name; name != seg && schema.SameFold(name, seg) {
				return path.Join(dir, name), true
			}
		}
	}
	return "", false
}

// checkCaseTwinFiles reports memory files of the work tree that would be
// one file on macOS and Windows.
func checkCaseTwinFiles(r *Report, entries []Entry, display func(string) string) {
	byKey := map[string][]string{}
	var keys []string
	for _, e := range entries {
		k := schema.FoldKey(e.URI.Path)
		if len(byKey[k]) == 0 {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], display(e.Path))
	}
	for _, k := range keys {
		if paths := byKey[k]; len(paths) > 1 {
			r.add(Problem{Severity: SevError, Code: "case-collision", Path: paths[0],
				Message: fmt.Sprintf("%s differ only in letter case: on macOS and Windows they are one file, and a clone there keeps only one", strings.Join(paths, " and ")),
				Fix:     "rename or merge them so their names differ by more than case, then run `cairn commit`"})
		}
	}
}
