//go:build linux && (amd64 || arm64) && !cairn_portable

package index

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// statter stats files in a directory without an allocation per call:
// unix.Fstatat copies each name into a new NUL-terminated buffer, and at
// ten thousand files a check those copies and their garbage cost more
// than a tenth of the walk. One buffer is reused instead.
type statter struct {
	name []byte
	st   unix.Stat_t
}

// stat stats a regular file in dirfd without following symlinks.
func (s *statter) stat(dirfd int, name string) (fileStat, bool) {
	s.name = append(append(s.name[:0], name...), 0)
	_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(&s.name[0])),
		uintptr(unsafe.Pointer(&s.st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
	if errno != 0 {
		return fileStat{}, false
	}
	return regularStat(&s.st)
}
