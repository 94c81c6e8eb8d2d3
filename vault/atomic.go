package vault

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairnmem/cairn/internal/atomicfile"
)

// tmpPrefix marks temp files of atomic writes; they are dot files so that
// listings and status skip them, and .gitignore names them too.
const tmpPrefix = ".cairn-tmp-"

// writeFileAtomic replaces path with data so that a crash leaves either the
// old content or the new, never a mix: write a temp file in the same
// directory, fsync it, rename it over path, fsync the directory.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(dir, tmpPrefix+filepath.Base(path)+"-"+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	cleanup := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		return cleanup(fmt.Errorf("write %s: %w", path, err))
	}
	if err := f.Sync(); err != nil {
		return cleanup(fmt.Errorf("sync %s: %w", path, err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := atomicfile.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	return syncDir(dir)
}

// syncDir makes a rename or unlink in dir durable.
func syncDir(dir string) error { return atomicfile.SyncDir(dir) }
