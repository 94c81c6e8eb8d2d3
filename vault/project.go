package vault

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
)

// projectRepo finds the git repository containing dir: its work-tree top
// and its git directory (following a "gitdir:" file for worktrees and
// submodules). Both are "" when dir is not in a git repository.
func projectRepo(dir string) (top, gitDir string) {
	for d := dir; ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return d, p
			}
			if b, err := os.ReadFile(p); err == nil {
				if s, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					g := strings.TrimSpace(s)
					if !filepath.IsAbs(g) {
						g = filepath.Join(d, g)
					}
					return d, g
				}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
}

// projectGitDir is the git directory of the repository containing dir, or "".
func projectGitDir(dir string) string {
	_, g := projectRepo(dir)
	return g
}

// commonDir is where shared files such as info/exclude live: a linked
// worktree's git directory points at it through "commondir".
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// ProjectHead returns the commit the project's work tree is on, for the
// Cairn-Code-Commit trailer, or "" when dir is not in a git repository or
// it has no commits yet.
func ProjectHead(dir string) string {
	if dir == "" {
		return ""
	}
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return ""
	}
	h, err := r.Head()
	if err != nil {
		return ""
	}
	return h.Hash().String()
}

// excludeFromProject adds the vault to the project's .git/info/exclude so
// the project never sees it as untracked, and reports whether it changed
// the file. It does nothing outside a git repository.
func excludeFromProject(projectDir, vaultRoot string) (bool, string, error) {
	top, gitDir := projectRepo(projectDir)
	if top == "" {
		return false, "", nil
	}
	rel, err := filepath.Rel(top, vaultRoot)
	if err != nil {
		return false, "", err
	}
	line := "/" + filepath.ToSlash(rel) + "/"
	path := filepath.Join(commonDir(gitDir), "info", "exclude")
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, path, err
	}
	sc := bufio.NewScanner(bytes.NewReader(old))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t == line || t == strings.TrimSuffix(line, "/") {
			return false, path, nil
		}
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("# cairn memory vault: its own git history (see `cairn init --help`)\n" + line + "\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, path, err
	}
	return true, path, writeFileAtomic(path, b.Bytes(), 0o644)
}
