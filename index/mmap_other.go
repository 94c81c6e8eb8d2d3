//go:build !(linux || darwin) || cairn_portable

package index

import (
	"os"

	"github.com/blevesearch/mmap-go"
)

// mapFile maps the first size bytes of f read-only; mmap-go does it with
// CreateFileMapping and MapViewOfFile on Windows, as bleve's own segments.
// The map keeps the file's data alive after f is closed, and the cache's
// locks guarantee no writer truncates the file while it is mapped (which
// Windows would refuse).
func mapFile(f *os.File, size int) ([]byte, error) {
	return mmap.MapRegion(f, size, mmap.RDONLY, 0, 0)
}

func unmapFile(b []byte) error {
	m := mmap.MMap(b)
	return m.Unmap()
}

// releasePages is a no-op where the map is not released page by page.
func releasePages([]byte) {}
