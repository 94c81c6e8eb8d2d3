package index

import "sort"

// The stat walk has two forms. On Linux and macOS (scan_unix.go) it works
// on directory file descriptors and skips listing directories whose stat
// data did not change. Elsewhere, Windows first (scan_other.go), it lists
// every directory and takes the files' stat data from the listing, which
// Windows returns without a call per file (scan_list.go). Both fill the
// same scanResult; a test runs both on Linux and compares them.

// fileStat is the stat data compared to decide whether a file may have
// changed. Any difference sends the file to be hashed; only the hash
// decides whether its content changed.
type fileStat struct {
	size         int64
	mtime, ctime int64
	ino          uint64
}

// scanResult is the work tree as one stat walk saw it.
type scanResult struct {
	seen  []bool              // per manifest file: still on disk
	added map[string]fileStat // memory files the manifest does not know
	// restat is the stat data of the known files that are suspect: only
	// theirs is ever written back, so a check keeps no stat per file.
	restat  map[string]fileStat
	dirs    []dirEntry
	suspect []string // files whose stat differs from the manifest, or racy
	deleted []string // in the manifest, gone from disk
	dirty   bool     // some directory changed: the manifest's dir cache is stale
}

// statOf returns the stat data the walk saw for a suspect or added path.
func (r *scanResult) statOf(p string) (fileStat, bool) {
	if s, ok := r.added[p]; ok {
		return s, true
	}
	s, ok := r.restat[p]
	return s, ok
}

func newScanResult(m *manifest) *scanResult {
	return &scanResult{seen: make([]bool, len(m.files)), added: map[string]fileStat{}, restat: map[string]fileStat{}}
}

// finish derives what the walk implies: manifest files not seen are
// deleted, and a changed number of directories makes the dir cache stale.
func (r *scanResult) finish(m *manifest) {
	for i := range m.files {
		if !r.seen[i] {
			r.deleted = append(r.deleted, m.files[i].path)
		}
	}
	if len(r.dirs) != len(m.dirs) {
		r.dirty = true
	}
	sort.Slice(r.dirs, func(i, j int) bool { return r.dirs[i].path < r.dirs[j].path })
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
