package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A generation's stores (bleve's files and vectors.f32) change only under
// the generation's exclusive lock, and every such change ends with a new
// manifest: the manifest records the size and mtime of each store file,
// and readers compare them before they trust the stores. A file cut short
// by a full disk, garbled by a tool, deleted or left half written by a
// writer that died no longer matches, and the cache is rebuilt from the
// vault instead of panicking in bolt or zap, or answering from a vector
// file that is no longer there. It costs a directory walk of a handful
// of files per query.

// storeStat is one store file as the manifest recorded it.
type storeStat struct {
	Path  string `json:"p"`
	Size  int64  `json:"s"`
	Mtime int64  `json:"m"` // ns
}

// storeStats lists the store files of the generation in genDir.
func storeStats(genDir string) ([]storeStat, error) {
	var out []storeStat
	err := filepath.WalkDir(genDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(genDir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || !(rel == "vectors.f32" || strings.HasPrefix(rel, "bleve/")) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, storeStat{Path: rel, Size: fi.Size(), Mtime: fi.ModTime().UnixNano()})
		return nil
	})
	slices.SortFunc(out, func(a, b storeStat) int { return strings.Compare(a.Path, b.Path) })
	return out, err
}

// checkStores reports a store file that is missing, extra or changed
// since the manifest was written. A manifest from before fingerprints
// (none recorded) passes.
func (m *manifest) checkStores(genDir string) error {
	if m.Stores == nil {
		return nil
	}
	now, err := storeStats(genDir)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	want := map[string]storeStat{}
	for _, s := range m.Stores {
		want[s.Path] = s
	}
	for _, s := range now {
		w, ok := want[s.Path]
		switch {
		case !ok:
			return fmt.Errorf("%w: %s appeared after the cache was written", ErrCorrupt, s.Path)
		case w != s:
			return fmt.Errorf("%w: %s changed after the cache was written (%d bytes, was %d)", ErrCorrupt, s.Path, s.Size, w.Size)
		}
		delete(want, s.Path)
	}
	for p := range want {
		return fmt.Errorf("%w: %s is missing", ErrCorrupt, p)
	}
	return nil
}

// checkVectors compares vectors.f32 with the manifest: a store the
// manifest says has rows must exist and hold them all.
func (m *manifest) checkVectors(path string) error {
	if m.Embedder.Name == noneName || m.Rows == 0 {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%w: %s: %v (the manifest records %d rows)", ErrCorrupt, path, err, m.Rows)
	}
	if need := int64(vecHeader + m.Rows*m.Embedder.Dims*4); fi.Size() < need {
		return fmt.Errorf("%w: %s holds %d bytes, %d rows need %d", ErrCorrupt, path, fi.Size(), m.Rows, need)
	}
	return nil
}
