package vault

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is one commit of a vault's history, with its Cairn-* trailers
// pulled out.
type Commit struct {
	Hash       string    `json:"hash"`
	Time       time.Time `json:"time"`
	Author     string    `json:"author"`
	Email      string    `json:"email"`
	Subject    string    `json:"subject"`
	Body       string    `json:"body,omitempty"`
	Verb       string    `json:"verb,omitempty"`
	Session    string    `json:"session,omitempty"`
	Source     string    `json:"source,omitempty"`
	CodeCommit string    `json:"code_commit,omitempty"`
	Trailers   []Trailer `json:"trailers,omitempty"`
	Parents    []string  `json:"parents,omitempty"`
	commit     *object.Commit
}

// Trailer is one "Key: value" line at the end of a commit message.
type Trailer struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Short is the abbreviated hash.
func (c Commit) Short() string {
	if len(c.Hash) > 8 {
		return c.Hash[:8]
	}
	return c.Hash
}

var trailerLine = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9-]*): (.*)$`)

func newCommit(c *object.Commit) Commit {
	out := Commit{Hash: c.Hash.String(), Time: c.Author.When, Author: c.Author.Name, Email: c.Author.Email, commit: c}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	msg := strings.TrimRight(c.Message, "\n")
	subject, rest, _ := strings.Cut(msg, "\n")
	out.Subject = strings.TrimSpace(subject)
	if verb, _, ok := strings.Cut(out.Subject, ": "); ok && !strings.Contains(verb, " ") {
		out.Verb = verb
	}
	paras := strings.Split(strings.TrimSpace(rest), "\n\n")
	if last := paras[len(paras)-1]; last != "" {
		var ts []Trailer
		ok := true
		for _, l := range strings.Split(last, "\n") {
			m := trailerLine.FindStringSubmatch(l)
			if m == nil {
				ok = false
				break
			}
			ts = append(ts, Trailer{Key: m[1], Value: m[2]})
		}
		if ok {
			out.Trailers = ts
			paras = paras[:len(paras)-1]
		}
	}
	out.Body = strings.TrimSpace(strings.Join(paras, "\n\n"))
	for _, t := range out.Trailers {
		switch t.Key {
		case TrailerSession:
			out.Session = t.Value
		case TrailerSource:
			out.Source = t.Value
		case TrailerCodeCommit:
			out.CodeCommit = t.Value
		}
	}
	return out
}

// LogOptions selects history.
type LogOptions struct {
	URI   *schema.URI // only commits that touched this memory
	Rev   string      // start here instead of HEAD
	Limit int         // at most this many; 0 for all
}

// Log returns commits newest first.
func (v *Vault) Log(opts LogOptions) ([]Commit, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	from, err := v.resolve(repo, opts.Rev)
	if err != nil {
		return nil, err
	}
	lo := &git.LogOptions{From: from.Hash, Order: git.LogOrderCommitterTime}
	if opts.URI != nil {
		p := opts.URI.RelPath()
		lo.FileName = &p
	}
	iter, err := repo.Log(lo)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	defer iter.Close()
	var out []Commit
	for {
		c, err := iter.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("log: %w", err)
		}
		out = append(out, newCommit(c))
		if opts.Limit > 0 && len(out) >= opts.Limit {
			break
		}
	}
	return out, nil
}

// resolve turns a revision (HEAD, HEAD~2, a hash prefix, a branch) into a
// commit; "" means HEAD.
func (v *Vault) resolve(repo *git.Repository, rev string) (*object.Commit, error) {
	if rev == "" {
		rev = "HEAD"
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		if rev == "HEAD" {
			return nil, fmt.Errorf("%w: the vault has no commits yet", ErrNotFound)
		}
		return nil, fmt.Errorf("%w: revision %q: %v", ErrNotFound, rev, err)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("%w: revision %q is not a commit: %v", ErrNotFound, rev, err)
	}
	return c, nil
}

// ResolveCommit returns the full hash of a revision.
func (v *Vault) ResolveCommit(rev string) (string, error) {
	repo, err := v.Repo()
	if err != nil {
		return "", err
	}
	c, err := v.resolve(repo, rev)
	if err != nil {
		return "", err
	}
	return c.Hash.String(), nil
}

// Show returns the memory file at uri as it was at rev.
func (v *Vault) Show(rev string, uri schema.URI) ([]byte, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	c, err := v.resolve(repo, rev)
	if err != nil {
		return nil, err
	}
	f, err := c.File(uri.RelPath())
	if err != nil {
		return nil, fmt.Errorf("%w: %s did not exist at %s", ErrNotFound, uri, shortHash(c.Hash))
	}
	s, err := f.Contents()
	return []byte(s), err
}

// InHead reports whether rel is committed at HEAD.
func (v *Vault) InHead(rel string) bool {
	repo, err := v.Repo()
	if err != nil {
		return false
	}
	head, err := readHead(repo)
	if err != nil || head.tree.IsZero() {
		return false
	}
	t, err := object.GetTree(repo.Storer, head.tree)
	if err != nil {
		return false
	}
	return !headHash(t, rel).IsZero()
}

// Head returns the vault's HEAD commit hash, or "" before the first commit.
// It reads the ref files directly: every search asks, and opening the
// repository through go-git costs milliseconds.
func (v *Vault) Head() (string, error) {
	if h, ok := v.headFast(); ok {
		return h, nil
	}
	repo, err := v.Repo()
	if err != nil {
		return "", err
	}
	h, err := readHead(repo)
	if err != nil {
		return "", err
	}
	if h.commit.IsZero() {
		return "", nil
	}
	return h.commit.String(), nil
}

func shortHash(h plumbing.Hash) string { return h.String()[:8] }

// headFast resolves HEAD from .git/HEAD and a loose or packed ref; ok is
// false when the layout is anything else and go-git must decide.
func (v *Vault) headFast() (string, bool) {
	b, err := os.ReadFile(filepath.Join(v.GitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	head := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(head, "ref: ")
	if !symbolic {
		return head, isHash(head)
	}
	if b, err := os.ReadFile(filepath.Join(v.GitDir, filepath.FromSlash(ref))); err == nil {
		h := strings.TrimSpace(string(b))
		return h, isHash(h)
	}
	packed, err := os.ReadFile(filepath.Join(v.GitDir, "packed-refs"))
	if err != nil {
		return "", os.IsNotExist(err) // no ref anywhere: an unborn branch
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if h, name, ok := strings.Cut(line, " "); ok && name == ref && isHash(h) {
			return h, true
		}
	}
	return "", true
}

func isHash(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// CommitFiles lists the vault-relative paths a commit changed against its
// first parent (everything, for the root commit).
func (v *Vault) CommitFiles(rev string) ([]string, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	c, err := v.resolve(repo, rev)
	if err != nil {
		return nil, err
	}
	return commitPaths(c)
}
