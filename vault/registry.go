package vault

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// registryFile lists the project vaults this user has, so cross-project
// work (promoting a preference seen in several projects) can find them.
// It lives in the state directory: machine-local, never committed.
func registryFile() (string, error) {
	d, err := currentDirs()
	if err != nil {
		return "", err
	}
	return filepath.Join(d.state, "projects"), nil
}

// RegisterProject records a project vault's root; recording it twice is
// harmless.
func RegisterProject(root string) error {
	path, err := registryFile()
	if err != nil {
		return err
	}
	known, _ := Projects()
	for _, p := range known {
		if p == root {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(root + "\n")
	return err
}

// Projects lists the registered project vault roots that still exist.
func Projects() ([]string, error) {
	path, err := registryFile()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if _, err := os.Stat(filepath.Join(p, "cairn.yaml")); err == nil {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, sc.Err()
}
