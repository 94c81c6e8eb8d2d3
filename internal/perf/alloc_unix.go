//go:build unix

package perf

import (
	"io/fs"
	"syscall"
)

// allocated is the space a file takes on disk.
func allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512
	}
	return fi.Size()
}
