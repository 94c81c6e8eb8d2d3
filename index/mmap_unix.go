//go:build (linux || darwin) && !cairn_portable

package index

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only.
func mapFile(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED|mapPopulate)
}

func unmapFile(b []byte) error { return unix.Munmap(b) }
