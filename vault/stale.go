package vault

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// StaleMemory is a memory that names project files which changed after
// the code commit it was written at.
type StaleMemory struct {
	URI        string   `json:"uri"`
	Title      string   `json:"title"`
	CodeCommit string   `json:"code_commit"`
	Files      []string `json:"files"`   // named files changed since
	Commits    int      `json:"commits"` // project commits since that touched them
}

// staleWalk bounds how far back project history is read.
const staleWalk = 5000

// pathToken finds path-like words: dir/file.ext or file.ext.
var pathToken = regexp.MustCompile("[A-Za-z0-9_.\\-]+(?:/[A-Za-z0-9_.\\-]+)*\\.[A-Za-z0-9]{1,8}")

// Stale lists memories whose body or title names files of the project
// that changed in the project's history after the memory's code commit.
// A project without git history, or memories without a code commit,
// yield nothing.
func (v *Vault) Stale(ctx context.Context) ([]StaleMemory, error) {
	dir := v.ProjectDir()
	if dir == "" {
		return nil, nil
	}
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, nil
	}
	head, err := repo.Head()
	if err != nil {
		return nil, nil
	}
	files, err := headFiles(repo, head.Hash())
	if err != nil {
		return nil, err
	}
	es, err := v.List(ListOptions{Parse: true})
	if err != nil {
		return nil, err
	}
	wants, commits := namingFiles(es, files)
	if len(wants) == 0 {
		return nil, nil
	}
	h, err := walkChanges(ctx, repo, head.Hash(), commits)
	if err != nil {
		return nil, err
	}
	var out []StaleMemory
	for _, w := range wants {
		if s, ok := h.stale(w); ok {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out, nil
}

// headFiles is the set of files in the project's tree at head.
func headFiles(repo *git.Repository, head plumbing.Hash) (map[string]bool, error) {
	hc, err := repo.CommitObject(head)
	if err != nil {
		return nil, err
	}
	tree, err := hc.Tree()
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	_ = tree.Files().ForEach(func(f *object.File) error {
		files[f.Name] = true
		return nil
	})
	return files, nil
}

// naming is a memory and the project files it names.
type naming struct {
	e     Entry
	named []string
}

// namingFiles is the memories with a code commit that name project
// files, and the set of their code commits.
func namingFiles(es []Entry, files map[string]bool) ([]naming, map[string]bool) {
	var wants []naming
	commits := map[string]bool{}
	for _, e := range es {
		if e.Memory == nil || e.Memory.Source == nil || e.Memory.Source.CodeCommit == "" {
			continue
		}
		named := namedFiles(e.Memory.Title+"\n"+e.Memory.Summary+"\n"+e.Memory.Body, files)
		if len(named) == 0 {
			continue
		}
		wants = append(wants, naming{e, named})
		commits[e.Memory.Source.CodeCommit] = true
	}
	return wants, commits
}

// changeLog is project history newest first, by position: where each
// code commit sits, and the commits that changed each file.
type changeLog struct {
	pos     map[string]int
	changed map[string][]int
}

// walkChanges reads project history from head, newest first, until every
// code commit is found or staleWalk commits are read.
func walkChanges(ctx context.Context, repo *git.Repository, head plumbing.Hash, commits map[string]bool) (*changeLog, error) {
	h := &changeLog{pos: map[string]int{}, changed: map[string][]int{}}
	iter, err := repo.Log(&git.LogOptions{From: head, Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, err
	}
	i := 0
	found := 0
	err = iter.ForEach(func(c *object.Commit) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if i >= staleWalk || found == len(commits) {
			return storer.ErrStop
		}
		if commits[c.Hash.String()] {
			h.pos[c.Hash.String()] = i
			found++
		}
		paths, err := commitPaths(c)
		if err != nil {
			return err
		}
		for _, p := range paths {
			h.changed[p] = append(h.changed[p], i)
		}
		i++
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return nil, err
	}
	return h, nil
}

// stale says which files w names changed after its code commit, and in
// how many commits; false when none did or the code commit was not seen.
func (h *changeLog) stale(w naming) (StaleMemory, bool) {
	cc := w.e.Memory.Source.CodeCommit
	p, ok := h.pos[cc]
	if !ok {
		return StaleMemory{}, false // older than the walk, or not on this branch
	}
	var names []string
	n := 0
	for _, f := range w.named {
		k := 0
		for _, at := range h.changed[f] {
			if at < p {
				k++
			}
		}
		if k > 0 {
			names = append(names, f)
			n += k
		}
	}
	if len(names) == 0 {
		return StaleMemory{}, false
	}
	return StaleMemory{URI: w.e.URI.String(), Title: w.e.Memory.Title, CodeCommit: cc, Files: names, Commits: n}, true
}

// namedFiles returns the project files a text mentions, by full path or,
// when unambiguous, by a path suffix (limiter.go for limiter/limiter.go).
func namedFiles(text string, files map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, tok := range pathToken.FindAllString(text, -1) {
		tok = strings.TrimPrefix(strings.TrimPrefix(tok, "./"), "/")
		match := ""
		if files[tok] {
			match = tok
		} else if strings.Contains(tok, "/") {
			for f := range files {
				if strings.HasSuffix(f, "/"+tok) {
					if match != "" {
						match = ""
						break
					}
					match = f
				}
			}
		}
		if match != "" && !seen[match] {
			seen[match] = true
			out = append(out, match)
		}
	}
	return out
}

// commitPaths lists the files a commit changed against its first parent.
func commitPaths(c *object.Commit) ([]string, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	var parent *object.Tree
	if c.NumParents() > 0 {
		pc, err := c.Parent(0)
		if err != nil {
			return nil, err
		}
		if parent, err = pc.Tree(); err != nil {
			return nil, err
		}
	}
	changes, err := object.DiffTree(parent, tree)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ch := range changes {
		name := ch.To.Name
		if name == "" {
			name = ch.From.Name
		}
		out = append(out, name)
	}
	return out, nil
}
