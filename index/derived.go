package index

import (
	"os"
	"path/filepath"
	"strings"
)

// ReadDerived returns a file that another package derives from the vault
// and keeps in the cache (a prebuilt context pack): it is the caller's to
// check that what it holds is still current. name is a plain file name.
func (ix *Index) ReadDerived(name string) ([]byte, error) {
	if strings.ContainsAny(name, `/\`) {
		return nil, os.ErrInvalid
	}
	return os.ReadFile(filepath.Join(ix.l.dir, "derived", name))
}

// WriteDerived replaces a derived file atomically: a reader sees the old
// content or the new, never a mix.
func (ix *Index) WriteDerived(name string, data []byte) error {
	if strings.ContainsAny(name, `/\`) {
		return os.ErrInvalid
	}
	dir := filepath.Join(ix.l.dir, "derived")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, name), data)
}
