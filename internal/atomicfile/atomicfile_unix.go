//go:build !windows

package atomicfile

import (
	"fmt"
	"os"
)

// Rename replaces newpath with oldpath atomically. On Unix a rename
// replaces an open file, so it never needs a retry.
func Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// ReadFile reads a file that another process may replace at any moment.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// SyncDir makes a rename or unlink in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
