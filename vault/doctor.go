package vault

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Severity ranks a doctor finding; only errors make doctor fail.
type Severity string

// Severities.
const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
)

// Problem is one doctor finding with the way to fix it.
type Problem struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Path     string   `json:"path,omitempty"`
	Line     int      `json:"line,omitempty"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix,omitempty"`
}

// Report is the outcome of Doctor.
type Report struct {
	Vault    string    `json:"vault"`
	Scope    string    `json:"scope"`
	Head     string    `json:"head,omitempty"`
	Memories int       `json:"memories"`
	Problems []Problem `json:"problems"`
	// Repaired is what Repair fixed before the checks ran, when it did.
	Repaired *RepairReport `json:"repaired,omitempty"`
}

// Errors counts error-level problems.
func (r Report) Errors() int {
	n := 0
	for _, p := range r.Problems {
		if p.Severity == SevError {
			n++
		}
	}
	return n
}

func (r *Report) add(p Problem) { r.Problems = append(r.Problems, p) }

// Doctor checks the vault: its git history, the git index against HEAD,
// every memory file, links, uncommitted edits, leftovers of interrupted
// writes, and the ignore rules. It reads only (Repair fixes what a killed
// writer left); each problem says how to fix it.
func (v *Vault) Doctor() Report {
	r := Report{Vault: v.Root, Scope: string(v.Scope), Problems: []Problem{}}
	v.checkGit(&r)
	entries, err := v.List(ListOptions{Parse: true})
	if err != nil {
		r.add(Problem{Severity: SevError, Code: "walk", Message: err.Error()})
	}
	known := map[string]bool{}
	for _, e := range entries {
		known[e.URI.String()] = true
	}
	for _, e := range entries {
		if e.Err != nil {
			addFileErrors(&r, v.display(e.Path), e.Err)
			continue
		}
		r.Memories++
		v.checkLinks(&r, e, known)
	}
	checkCaseTwinFiles(&r, entries, v.display)
	if st, err := v.Status(); err == nil && len(st) > 0 {
		var names []string
		for _, s := range st {
			names = append(names, fmt.Sprintf("%s (%s)", s.Path, s.State))
		}
		r.add(Problem{Severity: SevWarning, Code: "uncommitted", Message: fmt.Sprintf("%d file(s) changed outside cairn: %s", len(st), strings.Join(names, ", ")),
			Fix: "run `cairn commit` to validate and commit them, or `cairn diff` to review"})
	}
	v.checkIgnore(&r)
	v.checkLeftovers(&r)
	if h := v.LockHolder(); h != "" {
		r.add(Problem{Severity: SevInfo, Code: "locked", Message: "a writer holds the lock now: " + h})
	}
	if v.Scope == schema.ScopeProject && filepath.Base(filepath.Dir(v.GitDir)) == DirName {
		if top, gitDir := projectRepo(v.ProjectDir()); top != "" && !excluded(gitDir, top, v.Root) {
			r.add(Problem{Severity: SevWarning, Code: "not-excluded", Message: "the project's git sees the vault as untracked files",
				Fix: "run `cairn init` again to add it to .git/info/exclude, or `cairn init --tracked` to let the project track it"})
		}
	}
	return r
}

// addFileErrors turns a validation error into one problem per field, with
// the line, so JSON consumers can jump to it.
func addFileErrors(r *Report, path string, err error) {
	var ve *schema.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			r.add(Problem{Severity: SevError, Code: "invalid-memory", Path: path, Line: p.Line, Message: p.Error(),
				Fix: "edit the file, then run `cairn commit`"})
		}
		return
	}
	r.add(Problem{Severity: SevError, Code: "invalid-memory", Path: path, Message: err.Error(), Fix: "rename or fix the file, then run `cairn commit`"})
}

func (v *Vault) checkGit(r *Report) {
	repo, err := v.Repo()
	if err != nil {
		r.add(Problem{Severity: SevError, Code: "git", Message: err.Error(), Fix: "run `cairn init` to repair the vault"})
		return
	}
	head, err := readHead(repo)
	if err != nil {
		r.add(Problem{Severity: SevError, Code: "git", Message: err.Error(), Fix: "inspect " + v.GitDir + " with `git fsck`"})
		return
	}
	if head.commit.IsZero() {
		r.add(Problem{Severity: SevError, Code: "git", Message: "the vault has no commits", Fix: "run `cairn init` to make the initial commit"})
		return
	}
	r.Head = head.commit.String()
	if p, _ := v.readPending(); p != nil {
		r.add(Problem{Severity: SevError, Code: "interrupted-commit", Message: fmt.Sprintf("a write was killed while moving %s to %s", p.ref.Short(), shortHash(p.to)),
			Fix: "run `cairn doctor` (without --check) or any cairn write to finish it"})
	}
	if drift, err := v.checkIndex(repo); err != nil {
		r.add(Problem{Severity: SevError, Code: "git-index", Message: "reading the git index: " + err.Error(), Fix: "run `cairn doctor` (without --check) to rebuild it"})
	} else if len(drift) > 0 {
		var names []string
		for _, d := range drift {
			names = append(names, d.String())
		}
		if drift[0].rel == "" {
			names = []string{"the index is missing or unreadable"}
		}
		r.add(Problem{Severity: SevError, Code: "git-index", Message: fmt.Sprintf("the vault's git index disagrees with HEAD, so a plain `git commit` would change memories: %s", strings.Join(names, ", ")),
			Fix: "run `cairn doctor` (without --check) to make the index match HEAD"})
	}
	t, err := object.GetTree(repo.Storer, head.tree)
	if err != nil {
		r.add(Problem{Severity: SevError, Code: "git", Message: fmt.Sprintf("HEAD tree %s unreadable: %v", head.tree, err), Fix: "restore the vault from a clone or backup"})
		return
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.add(Problem{Severity: SevError, Code: "git", Message: "walking HEAD tree: " + err.Error(), Fix: "run `git fsck` in " + v.Root})
			}
			return
		}
		if e.Mode == filemode.Dir {
			continue
		}
		if repo.Storer.HasEncodedObject(e.Hash) != nil {
			r.add(Problem{Severity: SevError, Code: "git", Path: name, Message: fmt.Sprintf("object %s of %s is missing", e.Hash, name), Fix: "restore it from a clone (`cairn sync`) or backup"})
		}
	}
}

func (v *Vault) checkLinks(r *Report, e Entry, known map[string]bool) {
	m := e.Memory
	check := func(field string, uris []string) {
		for _, u := range uris {
			pu, err := schema.ParseURI(u, v.Scope)
			if err != nil || pu.Scope != v.Scope || known[pu.String()] {
				continue
			}
			r.add(Problem{Severity: SevWarning, Code: "broken-link", Path: v.display(e.Path), Line: m.FieldLine(field),
				Message: fmt.Sprintf("%s points at %s, which does not exist", field, u), Fix: "fix or remove the link (`cairn log` shows where it went)"})
		}
	}
	check("links", m.Links)
	check("supersedes", m.Supersedes)
	if m.SupersededBy != "" {
		check("superseded_by", []string{m.SupersededBy})
	}
	if m.Status == schema.StatusSuperseded && m.SupersededBy == "" {
		r.add(Problem{Severity: SevWarning, Code: "superseded-without-successor", Path: v.display(e.Path), Line: m.FieldLine("status"),
			Message: "status is superseded but superseded_by is empty", Fix: "add superseded_by: <uri of the newer memory>"})
	}
}

func (v *Vault) checkIgnore(r *Report) {
	data, _ := os.ReadFile(filepath.Join(v.Root, ".gitignore"))
	lines := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{".cache/", ".journal/"} {
		if !lines[want] && !lines[strings.TrimSuffix(want, "/")] {
			r.add(Problem{Severity: SevWarning, Code: "gitignore", Path: ".gitignore", Message: want + " is not ignored, so derived files could be committed",
				Fix: fmt.Sprintf("add the line %q to %s", want, filepath.Join(v.Root, ".gitignore"))})
		}
	}
}

// checkLeftovers finds temp files of writes that were interrupted, in the
// work tree and the git directory.
func (v *Vault) checkLeftovers(r *Report) {
	cutoff := time.Now().Add(-time.Minute)
	report := func(path string, d os.DirEntry) {
		if fi, err := d.Info(); err == nil && fi.ModTime().Before(cutoff) {
			r.add(Problem{Severity: SevWarning, Code: "leftover-temp", Path: v.display(path), Message: "temp file of an interrupted write",
				Fix: "run `cairn doctor` (without --check) to remove it: the file it belonged to is intact (old or new version)"})
		}
	}
	_ = v.walkDirs(func(dir string) {
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			if strings.HasPrefix(e.Name(), tmpPrefix) {
				report(filepath.Join(dir, e.Name()), e)
			}
		}
	})
	for _, dir := range []string{v.GitDir, filepath.Join(v.GitDir, "refs", "heads")} {
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			if strings.HasPrefix(e.Name(), tmpPrefix) {
				report(filepath.Join(dir, e.Name()), e)
			}
		}
	}
}

func excluded(gitDir, top, vaultRoot string) bool {
	rel, err := filepath.Rel(top, vaultRoot)
	if err != nil {
		return false
	}
	line := "/" + filepath.ToSlash(rel) + "/"
	data, _ := os.ReadFile(filepath.Join(commonDir(gitDir), "info", "exclude"))
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); t == line || t == strings.TrimSuffix(line, "/") || t == strings.TrimPrefix(line, "/") {
			return true
		}
	}
	gi, _ := os.ReadFile(filepath.Join(top, ".gitignore"))
	for _, l := range strings.Split(string(gi), "\n") {
		if t := strings.TrimSpace(l); t == line || t == strings.TrimSuffix(line, "/") || t == strings.TrimPrefix(line, "/") {
			return true
		}
	}
	return false
}
