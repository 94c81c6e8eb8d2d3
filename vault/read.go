package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// Read parses the memory at uri from the work tree.
func (v *Vault) Read(uri schema.URI) (*schema.Memory, error) {
	path, err := v.PathOf(uri)
	if err != nil {
		return nil, err
	}
	data, err := v.readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: no memory at %s", ErrNotFound, uri)
	}
	if err != nil {
		return nil, err
	}
	m, err := schema.Parse(v.display(path), data)
	if err != nil {
		return nil, err
	}
	m.URI = uri
	return m, nil
}

// ReadFile returns the raw bytes of the memory at uri.
func (v *Vault) ReadFile(uri schema.URI) ([]byte, error) {
	path, err := v.PathOf(uri)
	if err != nil {
		return nil, err
	}
	data, err := v.readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: no memory at %s", ErrNotFound, uri)
	}
	return data, err
}

// readFile reads a regular file, refusing a symlink that leads out of the
// vault.
func (v *Vault) readFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, err
		}
		if !within(v.realRoot, real) {
			return nil, fmt.Errorf("%w: %s links to %s", ErrUnsafePath, v.display(path), real)
		}
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", v.display(path))
	}
	if fi, err := os.Stat(path); err == nil {
		if err := schema.CheckSize(v.display(path), fi.Size()); err != nil {
			return nil, err
		}
	}
	return os.ReadFile(path)
}

// display is how a vault file is named in messages: relative to the
// working directory when that is shorter, else absolute.
func (v *Vault) display(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// Display names a vault-relative path for messages.
func (v *Vault) Display(rel string) string {
	return v.display(filepath.Join(v.Root, filepath.FromSlash(rel)))
}

// Exists reports whether a memory file exists at uri.
func (v *Vault) Exists(uri schema.URI) bool {
	path, err := v.PathOf(uri)
	if err != nil {
		return false
	}
	_, err = os.Lstat(path)
	return err == nil
}

// ListOptions selects memories to list.
type ListOptions struct {
	Prefix string // path fragment under the vault ("decisions/", "decisions/use")
	Parse  bool   // parse each file (kind, title, ...); without it only URIs
}

// Entry is one memory file found in the work tree.
type Entry struct {
	URI    schema.URI
	Path   string         // absolute file path
	Memory *schema.Memory // when parsed and valid
	Err    error          // parse or validation error, or a bad file name
}

// List walks the work tree for memory files in path order. Files that do
// not parse are returned with Err set, never skipped silently.
func (v *Vault) List(opts ListOptions) ([]Entry, error) {
	var out []Entry
	err := v.walk(func(rel, path string) {
		if rel == "" || !strings.HasSuffix(rel, ".md") || !strings.Contains(rel, "/") {
			return
		}
		if opts.Prefix != "" && !strings.HasPrefix(rel, opts.Prefix) {
			return
		}
		e := Entry{Path: path}
		u, err := schema.URIFromRelPath(rel, v.Scope)
		if err != nil {
			e.Err = fmt.Errorf("%s: file name is not a memory URI: %w", v.display(path), err)
			e.URI = schema.URI{Scope: v.Scope, Path: strings.TrimSuffix(rel, ".md")}
			out = append(out, e)
			return
		}
		e.URI = u
		if opts.Parse {
			e.Memory, e.Err = v.Read(u)
			if e.Err == nil {
				e.Err = e.Memory.Validate(v.display(path))
			}
		}
		out = append(out, e)
	})
	sort.Slice(out, func(i, j int) bool { return out[i].URI.Path < out[j].URI.Path })
	return out, err
}

// walk visits every file of the work tree that belongs in history: it
// skips .git, .cache, .journal and other dot directories, dot files other
// than .gitignore and .gitattributes, and symlinks.
func (v *Vault) walk(fn func(rel, path string)) error {
	return filepath.WalkDir(v.Root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == v.Root {
				return err
			}
			return nil // unreadable entries are reported by doctor, not fatal here
		}
		name := d.Name()
		if d.IsDir() {
			if path != v.Root && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(v.Root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(name, ".") && rel != ".gitignore" && rel != ".gitattributes" {
			return nil
		}
		fn(rel, path)
		return nil
	})
}
