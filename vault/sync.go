package vault

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// SyncOptions configures Sync.
type SyncOptions struct {
	Remote   Remote
	PullOnly bool
	PushOnly bool
	Auth     transport.AuthMethod // nil: AuthFor the remote's URL
	// Attempts bounds fetch-merge-push rounds when another clone pushes
	// in between; 0 means 5.
	Attempts int
}

// SyncReport says what a sync did.
type SyncReport struct {
	Remote    string      `json:"remote"`
	URL       string      `json:"url"`
	Branch    string      `json:"branch"`
	Result    string      `json:"result"` // up-to-date, fast-forward, merged, ahead, pushed-new-branch
	Added     []string    `json:"added,omitempty"`
	Updated   []string    `json:"updated,omitempty"`
	Deleted   []string    `json:"deleted,omitempty"`
	Merges    []MergeNote `json:"merges,omitempty"`
	Pushed    bool        `json:"pushed"`
	Head      string      `json:"head"`
	HandEdits int         `json:"hand_edits_committed,omitempty"`
	Rounds    int         `json:"rounds"`
}

// MergeNote records how one file edited on both sides was merged.
type MergeNote struct {
	Path  string `json:"path"`
	Note  string `json:"note"`
	Extra string `json:"extra,omitempty"`
}

// Sync fetches the remote branch, merges it into the vault (memory files
// with MergeMemory, so no conflict markers ever reach a file), and pushes
// the result. Hand edits are committed first; a sync never overwrites an
// uncommitted change. When another clone pushes in between, it fetches and
// merges again.
func (v *Vault) Sync(ctx context.Context, opts SyncOptions) (*SyncReport, error) {
	rep := &SyncReport{Remote: opts.Remote.Name, URL: opts.Remote.URL, Branch: opts.Remote.Branch}
	if opts.Auth == nil {
		opts.Auth = AuthFor(opts.Remote.URL)
	}
	repo, err := v.Repo()
	if err != nil {
		return rep, err
	}
	hand, err := v.CommitWorkTree(ctx, CommitMeta{Verb: "edit", Source: "sync"}, HandEditOptions{})
	if err != nil {
		return rep, err
	}
	if len(hand.Rejected) > 0 {
		var names []string
		for _, r := range hand.Rejected {
			names = append(names, r.Path)
		}
		return rep, fmt.Errorf("%w: fix or revert these uncommitted files before syncing: %s", ErrInvalidFiles, strings.Join(names, ", "))
	}
	rep.HandEdits = len(hand.Files)
	attempts := opts.Attempts
	if attempts <= 0 {
		attempts = 5
	}
	remoteRef := plumbing.NewRemoteReferenceName(opts.Remote.Name, opts.Remote.Branch)
	var theirs plumbing.Hash
	fetched := false // theirs is fresh from a fetch after a refused push
	for round := 1; round <= attempts; round++ {
		rep.Rounds = round
		if !opts.PushOnly {
			if !fetched {
				if theirs, err = v.fetch(ctx, repo, opts, remoteRef); err != nil {
					if refBeingWritten(err) && round < attempts {
						if err := pause(ctx, round); err != nil {
							return rep, err
						}
						continue
					}
					return rep, err
				}
			}
			fetched = false
			if err := v.mergeRemote(ctx, repo, theirs, opts.Remote, rep); err != nil {
				return rep, err
			}
		}
		rep.Head, _ = v.Head()
		if opts.PullOnly {
			return rep, nil
		}
		branch, err := currentBranch(repo)
		if err != nil {
			return rep, err
		}
		err = repo.PushContext(ctx, &git.PushOptions{RemoteName: opts.Remote.Name, Auth: opts.Auth,
			RefSpecs: []gitconfig.RefSpec{gitconfig.RefSpec(branch.String() + ":refs/heads/" + opts.Remote.Branch)}})
		switch {
		case err == nil:
			rep.Pushed = true
			return rep, nil
		case errors.Is(err, git.NoErrAlreadyUpToDate):
			return rep, nil
		case refBeingWritten(err) && round < attempts:
			if err := pause(ctx, round); err != nil {
				return rep, err
			}
			continue
		case opts.PushOnly:
			return rep, fmt.Errorf("push to %s (%s): %w", opts.Remote.Name, opts.Remote.URL, err)
		}
		// go-git words a refused push in plain text; what it means is
		// told by the remote: moved since our fetch means someone pushed
		// in between (fetch, merge and try again), unmoved means the push
		// failed for another reason.
		now, ferr := v.fetch(ctx, repo, opts, remoteRef)
		if ferr != nil || now == theirs {
			return rep, fmt.Errorf("push to %s (%s): %w", opts.Remote.Name, opts.Remote.URL, err)
		}
		theirs, fetched = now, true
	}
	return rep, fmt.Errorf("push to %s kept being overtaken by other pushes after %d rounds; run cairn sync again", opts.Remote.Name, attempts)
}

// ErrInvalidFiles marks uncommitted files that block an operation.
var ErrInvalidFiles = errors.New("invalid uncommitted files")

// ErrDetached marks a vault whose HEAD is on no branch: nothing to push.
var ErrDetached = errors.New("HEAD is detached")

// currentBranch is the branch HEAD is on: the vault's history a sync
// pushes, whatever its name.
func currentBranch(repo *git.Repository) (plumbing.ReferenceName, error) {
	h, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	if h.Type() != plumbing.SymbolicReference || !h.Target().IsBranch() {
		return "", fmt.Errorf("%w: check out the vault's branch before syncing", ErrDetached)
	}
	return h.Target(), nil
}

// fetch brings the remote branch in; a remote without the branch yet is
// not an error (the first push creates it).
func (v *Vault) fetch(ctx context.Context, repo *git.Repository, opts SyncOptions, remoteRef plumbing.ReferenceName) (plumbing.Hash, error) {
	err := repo.FetchContext(ctx, &git.FetchOptions{RemoteName: opts.Remote.Name, Auth: opts.Auth, Force: true,
		RefSpecs: []gitconfig.RefSpec{gitconfig.RefSpec("+refs/heads/" + opts.Remote.Branch + ":" + remoteRef.String())}})
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.Is(err, transport.ErrEmptyRemoteRepository), errors.Is(err, git.NoMatchingRefSpecError{}):
		return plumbing.ZeroHash, nil
	default:
		return plumbing.ZeroHash, fmt.Errorf("fetch %s (%s): %w", opts.Remote.Name, opts.Remote.URL, err)
	}
	ref, err := repo.Reference(remoteRef, true)
	if err != nil {
		return plumbing.ZeroHash, nil
	}
	return ref.Hash(), nil
}

// mergeRemote merges theirs into HEAD under the write lock.
func (v *Vault) mergeRemote(ctx context.Context, repo *git.Repository, theirs plumbing.Hash, r Remote, rep *SyncReport) error {
	if theirs.IsZero() {
		rep.Result = "pushed-new-branch"
		return nil
	}
	lock, err := v.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer lock.release()
	if repo, err = v.Repo(); err != nil { // the fetch wrote a pack
		return err
	}
	head, err := readHead(repo)
	if err != nil {
		return err
	}
	if head.commit == theirs {
		rep.Result = "up-to-date"
		return nil
	}
	tc, err := object.GetCommit(repo.Storer, theirs)
	if err != nil {
		return err
	}
	var oc *object.Commit
	if !head.commit.IsZero() {
		if oc, err = object.GetCommit(repo.Storer, head.commit); err != nil {
			return err
		}
		if ok, _ := tc.IsAncestor(oc); ok {
			rep.Result = "ahead"
			return nil
		}
	}
	if oc == nil {
		return v.moveTo(repo, head, tc, nil, rep, "fast-forward")
	}
	if ok, _ := oc.IsAncestor(tc); ok {
		return v.moveTo(repo, head, tc, nil, rep, "fast-forward")
	}
	return v.mergeCommit(repo, head, oc, tc, r, rep)
}

// mergeCommit merges their commit tc into ours, oc, file by file, and
// commits the result with both as parents; the message lists what the
// merge decided.
func (v *Vault) mergeCommit(repo *git.Repository, head headState, oc, tc *object.Commit, r Remote, rep *SyncReport) error {
	var baseTree *object.Tree
	if bases, err := oc.MergeBase(tc); err == nil && len(bases) > 0 {
		if baseTree, err = bases[0].Tree(); err != nil {
			return err
		}
	}
	ot, err := oc.Tree()
	if err != nil {
		return err
	}
	tt, err := tc.Tree()
	if err != nil {
		return err
	}
	changes, notes, err := v.mergeTrees(repo, baseTree, ot, tt)
	if err != nil {
		return err
	}
	rep.Merges = append(rep.Merges, notes...)
	tree, err := applyTree(repo.Storer, head.tree, changes)
	if err != nil {
		return err
	}
	when := v.now()
	sig := v.signature(repo, when)
	msg := fmt.Sprintf("sync: merge %s/%s\n\n", r.Name, r.Branch)
	for _, n := range notes {
		msg += fmt.Sprintf("%s: %s\n", n.Path, n.Note)
	}
	msg = v.clean(strings.TrimRight(msg, "\n")) + "\n\nCairn-Source: sync\n"
	mc := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree, ParentHashes: []plumbing.Hash{head.commit, tc.Hash}}
	h, err := storeCommit(repo.Storer, mc)
	if err != nil {
		return err
	}
	mcObj, err := object.GetCommit(repo.Storer, h)
	if err != nil {
		return err
	}
	return v.moveTo(repo, head, mcObj, changes, rep, "merged")
}

// moveTo points HEAD's branch at c and brings the work tree and the git
// index along through advance. changes, when given, are relative to
// HEAD's tree; otherwise they are computed. An uncommitted edit of a file
// the move changes is kept, never overwritten.
func (v *Vault) moveTo(repo *git.Repository, head headState, c *object.Commit, changes []treeChange, rep *SyncReport, result string) error {
	var moves []move
	var err error
	if changes == nil {
		moves, err = diffTrees(repo.Storer, head.tree, c.TreeHash, "")
	} else {
		moves, err = movesFrom(repo.Storer, head.tree, changes)
	}
	if err != nil {
		return err
	}
	for _, m := range moves {
		switch {
		case m.to.IsZero():
			rep.Deleted = append(rep.Deleted, m.rel)
		case m.from.IsZero():
			rep.Added = append(rep.Added, m.rel)
		default:
			rep.Updated = append(rep.Updated, m.rel)
		}
	}
	if err := v.advance(repo, head, c.Hash, c.TreeHash, moves, nil, false); err != nil {
		return err
	}
	rep.Result = result
	return nil
}

// flatten maps every file path of a tree to its blob hash.
func flatten(t *object.Tree) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if t == nil {
		return out, nil
	}
	err := t.Files().ForEach(func(f *object.File) error {
		out[f.Name] = f.Hash
		return nil
	})
	return out, err
}

// mergeTrees computes the changes that turn ours into the merge of ours
// and theirs. A file deleted on one side and changed on the other is kept:
// forgetting loses to new knowledge, and the removal stays in history.
func (v *Vault) mergeTrees(repo *git.Repository, base, ours, theirs *object.Tree) ([]treeChange, []MergeNote, error) {
	m := &treeMerge{v: v, repo: repo}
	var err error
	if m.base, err = flatten(base); err != nil {
		return nil, nil, err
	}
	if m.ours, err = flatten(ours); err != nil {
		return nil, nil, err
	}
	if m.theirs, err = flatten(theirs); err != nil {
		return nil, nil, err
	}
	paths := slices.Collect(maps.Keys(m.ours))
	for p := range m.theirs {
		if _, ok := m.ours[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		oh, th, bh := m.ours[p], m.theirs[p], m.base[p]
		switch {
		case oh == th, th == bh:
			continue
		case oh == bh:
			m.changes = append(m.changes, treeChange{rel: p, hash: th})
			continue
		case oh.IsZero():
			m.changes = append(m.changes, treeChange{rel: p, hash: th})
			m.notes = append(m.notes, MergeNote{Path: p, Note: "removed here, changed there: kept the changed version"})
			continue
		case th.IsZero():
			m.notes = append(m.notes, MergeNote{Path: p, Note: "changed here, removed there: kept this version"})
			continue
		}
		if !strings.HasSuffix(p, ".md") || !strings.Contains(p, "/") {
			m.notes = append(m.notes, MergeNote{Path: p, Note: "changed on both sides: kept this clone's version"})
			continue
		}
		if err := m.memory(p, bh, oh, th); err != nil {
			return nil, nil, err
		}
	}
	return m.changes, m.notes, nil
}

// treeMerge is a three-way merge of flattened trees in progress: the
// changes to make to ours, and what to tell the person.
type treeMerge struct {
	v                  *Vault
	repo               *git.Repository
	base, ours, theirs map[string]plumbing.Hash
	changes            []treeChange
	notes              []MergeNote
}

// memory merges a memory file changed on both sides field by field; a
// side that cannot be merged in lands beside it at a free path.
func (m *treeMerge) memory(p string, bh, oh, th plumbing.Hash) error {
	var bd []byte
	var err error
	if !bh.IsZero() {
		if bd, err = blobBytes(m.repo, bh); err != nil {
			return err
		}
	}
	od, err := blobBytes(m.repo, oh)
	if err != nil {
		return err
	}
	td, err := blobBytes(m.repo, th)
	if err != nil {
		return err
	}
	res, err := MergeMemory(m.v.Scope, p, bd, od, td, func(rel string) string { return freePath(rel, m.taken) })
	if err != nil {
		return err
	}
	if h, err := storeBlob(m.repo.Storer, res.Data); err != nil {
		return err
	} else if h != oh {
		m.changes = append(m.changes, treeChange{rel: p, hash: h})
	}
	note := MergeNote{Path: p, Note: res.Note}
	if res.Extra != nil {
		h, err := storeBlob(m.repo.Storer, res.Extra)
		if err != nil {
			return err
		}
		m.changes = append(m.changes, treeChange{rel: res.ExtraPath, hash: h})
		note.Extra = res.ExtraPath
	}
	m.notes = append(m.notes, note)
	return nil
}

// taken says whether a path is used on either side or by a change made
// so far.
func (m *treeMerge) taken(q string) bool {
	if _, ok := m.ours[q]; ok {
		return true
	}
	if _, ok := m.theirs[q]; ok {
		return true
	}
	return slices.ContainsFunc(m.changes, func(c treeChange) bool { return c.rel == q })
}

func blobBytes(repo *git.Repository, h plumbing.Hash) ([]byte, error) {
	blob, err := repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, blob.Size)
	_, err = io.ReadFull(r, data)
	return data, err
}
