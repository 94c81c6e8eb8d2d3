package index

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// scanList is the stat walk for platforms without directory file
// descriptors: every directory is listed, and a file's stat data comes
// from its directory entry. On Windows that costs no call per file
// (FindNextFile returns size and times with the name), so one listing per
// directory is the whole walk. Windows has no inode number or change
// time; size and modification time are what git for Windows compares too,
// and a file whose stat data is unchanged but whose content changed
// within the manifest's clock tick is still caught as racy.
//
// It builds and runs on every platform, so Linux tests it against scan.
func scanList(root string, m *manifest) (*scanResult, error) {
	res := newScanResult(m)
	m.indexOf("") // build the path map before the walk reads it from many goroutines
	oldDirs := make(map[string]dirEntry, len(m.dirs))
	for _, d := range m.dirs {
		oldDirs[d.path] = d
	}
	l := &lister{root: root, m: m, res: res, oldDirs: oldDirs, sem: make(chan struct{}, min(runtime.GOMAXPROCS(0), 8))}
	l.wg.Add(1)
	l.dir("")
	l.wg.Wait()
	if l.err != nil {
		return nil, l.err
	}
	res.finish(m)
	return res, nil
}

type lister struct {
	root    string
	m       *manifest
	res     *scanResult
	oldDirs map[string]dirEntry
	sem     chan struct{} // bounds concurrent listings
	wg      sync.WaitGroup

	mu  sync.Mutex
	err error // from the root only: a vanished subdirectory is not an error
}

// dir lists one directory, records its files and starts its subdirectories.
func (l *lister) dir(rel string) {
	defer l.wg.Done()
	abs := filepath.Join(l.root, filepath.FromSlash(rel))
	l.sem <- struct{}{}
	fi, err := os.Lstat(abs)
	var entries []os.DirEntry
	if err == nil {
		entries, err = os.ReadDir(abs)
	}
	<-l.sem
	if err != nil {
		if rel == "" {
			l.mu.Lock()
			l.err = err
			l.mu.Unlock()
		}
		return
	}
	de := dirEntry{path: rel, mtime: fi.ModTime().UnixNano()}
	old, ok := l.oldDirs[rel]
	dirty := !ok || old != de || de.mtime >= l.m.writtenAt

	var suspect []string
	added := map[string]fileStat{}
	restat := map[string]fileStat{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := join(rel, name)
		if e.IsDir() {
			l.wg.Add(1)
			go l.dir(p)
			continue
		}
		if !e.Type().IsRegular() || rel == "" || !strings.HasSuffix(name, ".md") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed since the listing
		}
		s := fileStat{size: info.Size(), mtime: info.ModTime().UnixNano()}
		i, known := l.m.indexOf(p)
		switch {
		case !known:
			added[p] = s
			suspect = append(suspect, p)
		default:
			l.res.seen[i] = true // each index belongs to one directory
			if !l.m.files[i].matches(s) || s.mtime >= l.m.writtenAt {
				suspect = append(suspect, p)
				restat[p] = s
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.res.dirs = append(l.res.dirs, de)
	l.res.dirty = l.res.dirty || dirty
	l.res.suspect = append(l.res.suspect, suspect...)
	for p, s := range added {
		l.res.added[p] = s
	}
	for p, s := range restat {
		l.res.restat[p] = s
	}
}
