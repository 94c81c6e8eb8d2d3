//go:build (linux || darwin) && !cairn_portable

package index

import (
	"os"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// scanChunk bounds the files one task stats, so a large directory is
// spread over cores.
const scanChunk = 512

// scan walks the vault's work tree and compares it with the manifest. A
// directory whose stat data is unchanged is not listed again: its files
// come from the manifest and only they are stat'ed. Stat calls dominate,
// about a microsecond or two each, and are spread over the cores.
func scan(root string, m *manifest) (*scanResult, error) {
	res := newScanResult(m)
	// Group the manifest's files and directories by parent directory. The
	// files are sorted by path, so a directory's files come in a few runs
	// (one unless a subdirectory's name sorts among them): the map is
	// touched once per run, not once per file.
	files := map[string][]span{}
	for start := 0; start < len(m.files); {
		d := dirOf(m.files[start].path)
		end := start + 1
		for end < len(m.files) && inDir(m.files[end].path, d) {
			end++
		}
		files[d] = append(files[d], span{start, end})
		start = end
	}
	subdirs := map[string][]string{}
	oldDirs := make(map[string]dirEntry, len(m.dirs))
	for _, d := range m.dirs {
		oldDirs[d.path] = d
		if d.path != "" {
			subdirs[dirOf(d.path)] = append(subdirs[dirOf(d.path)], d.path)
		}
	}
	w := &walker{root: root, m: m, res: res, files: files, subdirs: subdirs, oldDirs: oldDirs}
	if err := w.run(); err != nil {
		return nil, err
	}
	res.finish(m)
	return res, nil
}

// span is a run [start, end) of manifest files in one directory.
type span struct{ start, end int }

// inDir reports whether p is a file directly in dir.
func inDir(p, dir string) bool {
	if dir == "" {
		return strings.IndexByte(p, '/') < 0
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir && strings.IndexByte(p[len(dir)+1:], '/') < 0
}

type walker struct {
	root    string
	m       *manifest
	res     *scanResult
	files   map[string][]span
	subdirs map[string][]string
	oldDirs map[string]dirEntry

	mu      sync.Mutex
	err     error
	tasks   chan func()
	pending sync.WaitGroup
}

func (w *walker) run() error {
	w.tasks = make(chan func(), 256)
	workers := min(runtime.GOMAXPROCS(0), 8)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range w.tasks {
				t()
				w.pending.Done()
			}
		}()
	}
	w.submit(func() { w.dir("") })
	w.pending.Wait()
	close(w.tasks)
	wg.Wait()
	return w.err
}

// submit queues a task without ever blocking a worker on a full queue.
func (w *walker) submit(t func()) {
	w.pending.Add(1)
	select {
	case w.tasks <- t:
	default:
		go func() { w.tasks <- t }()
	}
}

func (w *walker) fail(rel string, err error) {
	if rel == "" {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
	}
}

// dir looks at one directory: its own stat, its subdirectories, and its
// files in chunks.
func (w *walker) dir(rel string) {
	abs := w.root
	if rel != "" {
		abs += "/" + rel
	}
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		w.fail(rel, err)
		return
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		w.fail(rel, err)
		return
	}
	mt, ct := statTimes(&st)
	de := dirEntry{path: rel, mtime: mt, ctime: ct, ino: st.Ino}
	old, ok := w.oldDirs[rel]
	unchanged := ok && old == de && mt < w.m.writtenAt

	var subdirs []string
	known := w.files[rel]
	var added []string // names of .md files the manifest does not have here
	if unchanged {
		subdirs = w.subdirs[rel]
	} else {
		f := os.NewFile(uintptr(dupFD(fd)), abs)
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			w.fail(rel, err)
			return
		}
		have := make(map[string]bool)
		for _, sp := range known {
			for i := sp.start; i < sp.end; i++ {
				have[w.m.files[i].path] = true
			}
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			p := join(rel, name)
			switch {
			case e.IsDir():
				subdirs = append(subdirs, p)
			case e.Type().IsRegular() && rel != "" && strings.HasSuffix(name, ".md") && !have[p]:
				added = append(added, name)
			}
		}
	}
	w.mu.Lock()
	w.res.dirs = append(w.res.dirs, de)
	if !unchanged {
		w.res.dirty = true
	}
	w.mu.Unlock()
	for _, sd := range subdirs {
		sd := sd
		w.submit(func() { w.dir(sd) })
	}
	for _, sp := range known {
		for start := sp.start; start < sp.end; start += scanChunk {
			chunk := span{start, min(start+scanChunk, sp.end)}
			w.submit(func() { w.statKnown(abs, chunk) })
		}
	}
	if len(added) > 0 {
		w.statAdded(fd, rel, added)
	}
}

// statKnown stats a run of files the manifest knows, in one directory.
func (w *walker) statKnown(abs string, sp span) {
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return // the directory vanished: its files count as deleted
	}
	defer unix.Close(fd)
	var suspect []string
	var stats []fileStat // of the suspects, in order
	var st statter
	for i := sp.start; i < sp.end; i++ {
		e := &w.m.files[i]
		s, ok := st.stat(fd, e.path[strings.LastIndexByte(e.path, '/')+1:])
		if !ok {
			continue
		}
		w.res.seen[i] = true // each index is written by one task only
		if !e.matches(s) || s.mtime >= w.m.writtenAt {
			suspect = append(suspect, e.path)
			stats = append(stats, s)
		}
	}
	if len(suspect) > 0 {
		w.mu.Lock()
		w.res.suspect = append(w.res.suspect, suspect...)
		for k, p := range suspect {
			w.res.restat[p] = stats[k]
		}
		w.mu.Unlock()
	}
}

// statAdded stats files new to the manifest.
func (w *walker) statAdded(fd int, rel string, names []string) {
	found := map[string]fileStat{}
	var st statter
	for _, n := range names {
		if s, ok := st.stat(fd, n); ok {
			found[join(rel, n)] = s
		}
	}
	w.mu.Lock()
	for p, s := range found {
		w.res.added[p] = s
		w.res.suspect = append(w.res.suspect, p)
	}
	w.mu.Unlock()
}

// dupFD duplicates fd so os.File can own and close its copy.
func dupFD(fd int) int {
	nfd, err := unix.Dup(fd)
	if err != nil {
		return -1
	}
	return nfd
}
