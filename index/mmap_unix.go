//go:build (linux || darwin) && !cairn_portable

package index

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only. Pages are faulted in
// as they are read, not all at the map: a reader that scores the vectors
// releases each chunk behind it (releasePages), so they never all count
// towards the process's resident memory at once.
func mapFile(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmapFile(b []byte) error { return unix.Munmap(b) }

// releasePages drops the process's mapping of b's pages (b starts on a
// page boundary). The map is shared and read-only, so the data stays in
// the page cache and is read again if touched.
func releasePages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }
