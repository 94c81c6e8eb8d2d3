package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitMeta describes the commit an Update makes.
type CommitMeta struct {
	Verb       string // remember, update, merge, supersede, forget, edit, ...
	Subject    string // overrides "<verb>: <uri>"
	Body       string // free text between subject and trailers
	Session    string // Cairn-Session trailer
	Source     string // Cairn-Source trailer: cli, hand-edit, claude-code, mcp, ...
	CodeCommit string // Cairn-Code-Commit trailer: the project's HEAD
	Trailers   [][2]string
}

// CommitResult reports what an Update did.
type CommitResult struct {
	Commit  string       // new commit hash, "" when there was nothing to commit
	Changed []schema.URI // memories written or removed
	Paths   []string     // every vault-relative path in the commit
}

// Committed reports whether the update made a commit.
func (r CommitResult) Committed() bool { return r.Commit != "" }

// Tx stages the changes of one Update. It is only valid inside the
// function passed to Update, which holds the vault's write lock.
type Tx struct {
	v      *Vault
	staged map[string][]byte // rel path → content; nil content removes the file
	uris   map[string]schema.URI
	order  []string
}

// Vault returns the vault the transaction writes to.
func (tx *Tx) Vault() *Vault { return tx.v }

// Now is the time stamped on memories written in this transaction.
func (tx *Tx) Now() time.Time { return schema.Timestamp(tx.v.now()) }

// Read returns the memory at uri as this transaction would leave it.
func (tx *Tx) Read(uri schema.URI) (*schema.Memory, error) {
	if data, ok := tx.staged[uri.RelPath()]; ok {
		if data == nil {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, uri)
		}
		m, err := schema.Parse(uri.RelPath(), data)
		if err == nil {
			m.URI = uri
		}
		return m, err
	}
	return tx.v.Read(uri)
}

// Exists reports whether a memory exists at uri, staged changes included.
func (tx *Tx) Exists(uri schema.URI) bool {
	if data, ok := tx.staged[uri.RelPath()]; ok {
		return data != nil
	}
	return tx.v.Exists(uri)
}

// UniqueURI returns base if it is free, else base-2, base-3, ...
func (tx *Tx) UniqueURI(base schema.URI) schema.URI {
	if !tx.Exists(base) {
		return base
	}
	for i := 2; ; i++ {
		u := base.WithName(fmt.Sprintf("%s-%d", base.Name(), i))
		if !tx.Exists(u) {
			return u
		}
	}
}

// Put stages a memory at m.URI after validating it.
func (tx *Tx) Put(m *schema.Memory) error {
	if m.URI.IsZero() {
		return fmt.Errorf("%w: memory %q has no URI", schema.ErrBadURI, m.Title)
	}
	if _, err := tx.v.PathOf(m.URI); err != nil {
		return err
	}
	// Text from agents, hooks and imports may carry control bytes; they
	// never reach a file (a hand edit holding one is refused instead).
	m.CleanStrings(schema.CleanText)
	if err := m.Validate(m.URI.RelPath()); err != nil {
		return err
	}
	data, err := m.Marshal()
	if err != nil {
		return err
	}
	if err := schema.CheckSize(m.URI.RelPath(), int64(len(data))); err != nil {
		return err
	}
	if err := tx.guard(m.URI.RelPath(), data); err != nil {
		return err
	}
	tx.stage(m.URI.RelPath(), data)
	tx.uris[m.URI.RelPath()] = m.URI
	return nil
}

// PutFile stages a non-memory file (cairn.yaml, .gitattributes, ...).
func (tx *Tx) PutFile(rel string, data []byte) error {
	if _, err := tx.v.abs(rel); err != nil {
		return err
	}
	if data == nil {
		data = []byte{}
	}
	if err := schema.CheckSize(rel, int64(len(data))); err != nil {
		return err
	}
	if err := tx.guard(rel, data); err != nil {
		return err
	}
	tx.stage(rel, data)
	return nil
}

func (tx *Tx) guard(rel string, data []byte) error {
	if tx.v.Guard == nil {
		return nil
	}
	return tx.v.Guard(rel, data)
}

// Delete stages the removal of the memory at uri.
func (tx *Tx) Delete(uri schema.URI) error {
	if _, err := tx.v.PathOf(uri); err != nil {
		return err
	}
	if !tx.Exists(uri) {
		return fmt.Errorf("%w: %s", ErrNotFound, uri)
	}
	tx.stage(uri.RelPath(), nil)
	tx.uris[uri.RelPath()] = uri
	return nil
}

// DeleteFile stages the removal of any vault file.
func (tx *Tx) DeleteFile(rel string) error {
	if _, err := tx.v.abs(rel); err != nil {
		return err
	}
	tx.stage(rel, nil)
	return nil
}

func (tx *Tx) stage(rel string, data []byte) {
	if _, ok := tx.staged[rel]; !ok {
		tx.order = append(tx.order, rel)
	}
	tx.staged[rel] = data
}

// Update runs fn under the vault's write lock and commits what it staged as
// one commit. A batch that changes nothing is a success with no commit.
// The commit is built in the object store first; advance then writes the
// files, moves the branch and patches the git index as one restartable
// step, so a crash anywhere leaves a vault the next writer completes.
func (v *Vault) Update(ctx context.Context, meta CommitMeta, fn func(*Tx) error) (CommitResult, error) {
	lock, err := v.lockForWrite(ctx)
	if err != nil {
		return CommitResult{}, err
	}
	defer lock.release()
	// After the lock: a pack made since (pack.go) gives a fresh repository.
	repo, err := v.Repo()
	if err != nil {
		return CommitResult{}, err
	}

	tx := &Tx{v: v, staged: map[string][]byte{}, uris: map[string]schema.URI{}}
	if err := fn(tx); err != nil {
		return CommitResult{}, err
	}
	head, err := readHead(repo)
	if err != nil {
		return CommitResult{}, err
	}
	var headTree *object.Tree
	if !head.tree.IsZero() {
		if headTree, err = object.GetTree(repo.Storer, head.tree); err != nil {
			return CommitResult{}, fmt.Errorf("read HEAD tree: %w", err)
		}
	}
	trees := newHeadTrees(headTree)
	if err := tx.checkCaseTwins(trees); err != nil {
		return CommitResult{}, err
	}
	changes, moves, res, err := tx.changes(repo, trees)
	if err != nil || len(changes) == 0 {
		return res, err
	}
	tree, err := applyTree(repo.Storer, head.tree, changes)
	if err != nil {
		return res, err
	}
	when := v.now()
	sig := v.signature(repo, when)
	c := &object.Commit{Author: sig, Committer: sig, Message: meta.message(res.Changed, res.Paths, v.clean), TreeHash: tree}
	if !head.commit.IsZero() {
		c.ParentHashes = []plumbing.Hash{head.commit}
	}
	h, err := storeCommit(repo.Storer, c)
	if err != nil {
		return res, fmt.Errorf("store commit: %w", err)
	}
	// The lock keeps cairn writers out; a commit made meanwhile by hand with
	// git would be lost by moving the ref, so refuse instead.
	if now, err := readHead(repo); err != nil || now.commit != head.commit {
		return res, fmt.Errorf("vault HEAD moved during the write (was %s); run the command again", head.commit)
	}
	err = v.advance(repo, head, h, tree, moves, tx.staged, true)
	if now, rerr := readHead(repo); rerr == nil && now.commit == h {
		res.Commit = h.String()
	}
	return res, err
}

// changes stores the staged files' blobs and lists what differs from
// HEAD: the tree changes, the moves of the work tree, and the paths and
// memories the commit will name. A file committed as is already is only
// written to the work tree.
func (tx *Tx) changes(repo *git.Repository, trees *headTrees) ([]treeChange, []move, CommitResult, error) {
	var changes []treeChange
	var moves []move
	var res CommitResult
	for _, rel := range tx.order {
		data := tx.staged[rel]
		var want plumbing.Hash
		if data != nil {
			var err error
			if want, err = storeBlob(repo.Storer, data); err != nil {
				return nil, nil, res, fmt.Errorf("store %s: %w", rel, err)
			}
		}
		old := trees.hash(rel)
		if old == want {
			// Already committed as is: the work tree must hold it too.
			if err := tx.v.putWorkFile(rel, data); err != nil {
				return nil, nil, res, err
			}
			continue
		}
		changes = append(changes, treeChange{rel: rel, hash: want})
		moves = append(moves, move{rel: rel, from: old, to: want})
		res.Paths = append(res.Paths, rel)
		if u, ok := tx.uris[rel]; ok {
			res.Changed = append(res.Changed, u)
		}
	}
	return changes, moves, res, nil
}

// putWorkFile makes the work-tree file rel hold data (nil: no file).
func (v *Vault) putWorkFile(rel string, data []byte) error {
	path := filepath.Join(v.Root, filepath.FromSlash(rel))
	if data != nil {
		return writeIfChanged(path, data)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", rel, err)
	} else if err == nil {
		_ = syncDir(filepath.Dir(path))
		removeEmptyDirs(v.Root, filepath.Dir(path))
	}
	return nil
}

// clean is what every text bound for a commit message passes through:
// the vault's Clean (secret redaction plugs in there), else control bytes
// stripped.
func (v *Vault) clean(s string) string {
	if v.Clean != nil {
		return v.Clean(s)
	}
	return schema.CleanText(s)
}

func headHash(t *object.Tree, rel string) plumbing.Hash {
	if t == nil {
		return plumbing.ZeroHash
	}
	e, err := t.FindEntry(rel)
	if err != nil {
		return plumbing.ZeroHash
	}
	return e.Hash
}

// writeIfChanged writes data unless the file already holds exactly that:
// identical writes are no-ops and do not touch the file.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, data, 0o644)
}

// removeEmptyDirs removes dir and its parents up to root while they are
// empty, as git does when the last file of a directory goes.
func removeEmptyDirs(root, dir string) {
	for dir != root && within(root, dir) {
		if err := os.Remove(dir); err != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// message renders "<verb>: <uri>", a body listing every URI when there are
// several, and the Cairn-* trailers.
func (m CommitMeta) message(uris []schema.URI, paths []string, clean func(string) string) string {
	var b strings.Builder
	subject := m.Subject
	if subject == "" {
		target := ""
		switch {
		case len(uris) > 0:
			target = uris[0].String()
		case len(paths) > 0:
			target = paths[0]
		}
		extra := len(paths) - 1
		subject = m.Verb + ": " + target
		if extra > 0 {
			subject += fmt.Sprintf(" (+%d more)", extra)
		}
	}
	b.WriteString(oneLine(clean(subject)))
	b.WriteString("\n")
	body := strings.TrimSpace(clean(m.Body))
	if len(paths) > 1 {
		var list []string
		for _, u := range uris {
			list = append(list, "- "+u.String())
		}
		sort.Strings(list)
		if body != "" {
			body += "\n\n"
		}
		body += strings.Join(list, "\n")
	}
	if body != "" {
		b.WriteString("\n" + body + "\n")
	}
	var trailers []string
	add := func(k, v string) {
		if v = strings.TrimSpace(oneLine(clean(v))); v != "" {
			trailers = append(trailers, oneLine(clean(k))+": "+v)
		}
	}
	add(TrailerSession, m.Session)
	add(TrailerSource, m.Source)
	add(TrailerCodeCommit, m.CodeCommit)
	for _, t := range m.Trailers {
		add(t[0], t[1])
	}
	if len(trailers) > 0 {
		b.WriteString("\n" + strings.Join(trailers, "\n") + "\n")
	}
	return b.String()
}

// Commit trailer keys.
const (
	TrailerSession    = "Cairn-Session"
	TrailerSource     = "Cairn-Source"
	TrailerCodeCommit = "Cairn-Code-Commit"
)

// oneLine folds line breaks into spaces: a subject or a trailer value that
// spanned lines would forge trailers or split the subject.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
