//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// Rename replaces newpath with oldpath atomically. MoveFileEx with
// MOVEFILE_WRITE_THROUGH returns only once the rename is on disk, which is
// what a directory fsync gives on Unix. A reader holding newpath open
// (Go opens files without FILE_SHARE_DELETE) makes it fail with access
// denied until the reader closes it: that is retried.
func Rename(oldpath, newpath string) error {
	from, err := windows.UTF16PtrFromString(longPath(oldpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	to, err := windows.UTF16PtrFromString(longPath(newpath))
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	err = retry(func() error {
		return windows.MoveFileEx(from, to, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH)
	}, transient, retryFor)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}

// ReadFile reads a file that another process may be replacing: an open
// during the replace fails with a sharing violation for a moment.
func ReadFile(path string) ([]byte, error) {
	var data []byte
	err := retry(func() error {
		var err error
		data, err = os.ReadFile(path)
		return err
	}, transient, retryFor)
	return data, err
}

// SyncDir is a no-op: Windows cannot flush a directory handle, and
// Rename already waits for the rename to reach the disk.
func SyncDir(string) error { return nil }

// transient reports errors another process causes by holding a file open.
func transient(err error) bool {
	var errno windows.Errno
	if !errors.As(err, &errno) {
		return false
	}
	switch errno {
	case windows.ERROR_ACCESS_DENIED, windows.ERROR_SHARING_VIOLATION, windows.ERROR_LOCK_VIOLATION:
		return true
	}
	return false
}

// longPath makes an absolute path of 248 characters or more usable by the
// Win32 API, as the os package does for its own calls.
func longPath(p string) string {
	if len(p) < 248 || strings.HasPrefix(p, `\\?\`) {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if strings.HasPrefix(abs, `\\`) {
		return `\\?\UNC\` + abs[2:]
	}
	return `\\?\` + abs
}
