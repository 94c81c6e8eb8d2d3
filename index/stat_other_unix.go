//go:build ((linux && !(amd64 || arm64)) || darwin) && !cairn_portable

package index

import "golang.org/x/sys/unix"

// statter stats files in a directory (see stat_linux.go for the form
// without an allocation per call).
type statter struct{ st unix.Stat_t }

// stat stats a regular file in dirfd without following symlinks.
func (s *statter) stat(dirfd int, name string) (fileStat, bool) {
	if err := unix.Fstatat(dirfd, name, &s.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileStat{}, false
	}
	return regularStat(&s.st)
}
