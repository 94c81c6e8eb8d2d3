package vault

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// abs returns the absolute file path of a vault-relative slash path after
// checking that it stays inside the vault even through symlinks. The URI
// parser already refuses "..", absolute paths and dot segments; this guards
// against a symlinked directory that points elsewhere.
func (v *Vault) abs(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s", ErrUnsafePath, rel)
	}
	p := filepath.Join(v.Root, clean)
	// Resolve the deepest existing ancestor; the rest does not exist yet and
	// will be created as plain directories.
	existing := p
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrUnsafePath, rel, err)
	}
	if !within(v.realRoot, real) {
		return "", fmt.Errorf("%w: %s resolves to %s", ErrUnsafePath, rel, real)
	}
	return p, nil
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// PathOf returns the file path of the memory at uri.
func (v *Vault) PathOf(uri schema.URI) (string, error) {
	if uri.Scope != v.Scope {
		return "", fmt.Errorf("%w: %s is not in the %s vault", schema.ErrBadURI, uri, v.Scope)
	}
	return v.abs(uri.RelPath())
}

// URIOf maps a file path (absolute, or relative to the working directory)
// inside the vault to its URI.
func (v *Vault) URIOf(path string) (schema.URI, error) {
	a, err := filepath.Abs(path)
	if err != nil {
		return schema.URI{}, err
	}
	rel, err := filepath.Rel(v.Root, a)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return schema.URI{}, fmt.Errorf("%w: %s is outside the vault %s", schema.ErrBadURI, path, v.Root)
	}
	return schema.URIFromRelPath(filepath.ToSlash(rel), v.Scope)
}
