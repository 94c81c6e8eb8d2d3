package index

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// manifestMagic opens manifest.bin; the JSON header follows on the same
// line, so `head -1 manifest.bin` shows what a cache holds.
const manifestMagic = "CAIRNMF5 "

// EmbedderInfo identifies what made a cache's vectors; any change re-embeds.
type EmbedderInfo struct {
	Name    string `json:"name"`
	Model   string `json:"model,omitempty"`
	Dims    int    `json:"dims"`
	Version int    `json:"version,omitempty"`
}

// header is the JSON part of the manifest.
type header struct {
	Seq      uint64       `json:"seq"`    // incremented by every write
	Commit   string       `json:"commit"` // vault HEAD when last synced
	Embedder EmbedderInfo `json:"embedder"`
	Docs     int          `json:"docs"` // documents in bleve
	Rows     int          `json:"rows"` // rows in vectors.f32, live or free
	Files    int          `json:"files"`
	Dirs     int          `json:"dirs"`
	// Stores are the store files as this manifest's writer left them.
	Stores []storeStat `json:"stores,omitempty"`
	// Fallback is the embedder that was configured but down when this
	// full-text-only cache was built: the cache serves it until the
	// embedder answers again, instead of being rebuilt by every process.
	Fallback *EmbedderInfo `json:"fallback,omitempty"`
}

// fileFlags mark manifest entries that are not plain indexed memories.
const (
	flagInvalid  uint8 = 1 << iota // failed to parse; not in bleve
	flagNoVector                   // in bleve, vector still to be made
)

// fileEntry is what the cache knows about one memory file: its content
// hash, the stat data seen when it was hashed, and its vector row.
type fileEntry struct {
	path  string
	hash  [20]byte
	size  int64
	mtime int64 // ns
	ctime int64 // ns
	ino   uint64
	row   int32 // -1 when the file has no vector
	flags uint8
	// lens are the analyzed lengths of the full-text fields, in the order
	// of textFields, for BM25's length normalization.
	lens [numTextFields]uint32
	// meta lets listings by kind, status and time run on the manifest.
	meta docMeta
}

// docMeta is what listings filter and sort on, and what places a memory
// among its neighbours: the agent session it came from and when.
type docMeta struct {
	kind    uint8 // index into kindCodes
	status  uint8 // index into statusCodes
	pinned  bool
	updated int64  // unix seconds
	created int64  // unix seconds
	session uint32 // hash of the source session; 0 for none
}

func (e *fileEntry) matches(s fileStat) bool {
	return e.size == s.size && e.mtime == s.mtime && e.ctime == s.ctime && e.ino == s.ino
}

func (e *fileEntry) setStat(s fileStat) {
	e.size, e.mtime, e.ctime, e.ino = s.size, s.mtime, s.ctime, s.ino
}

// dirEntry records a directory's stat data, so a directory whose entries
// did not change need not be listed again.
type dirEntry struct {
	path         string
	mtime, ctime int64
	ino          uint64
}

// manifest is kept as sorted slices: the read path decodes and walks it on
// every query, and slices cost a fraction of maps to build.
type manifest struct {
	header
	files  []fileEntry // sorted by path
	dirs   []dirEntry  // sorted by path; "" is the vault root
	byPath map[string]int
	size   int64 // of manifest.bin when loaded, to tell whether it changed since
	// nb places memories in their sessions, built on first use.
	nb     *neighbourhood
	nbOnce sync.Once
	// writtenAt is the file system's mtime of manifest.bin: a file whose
	// mtime is not before it may have changed within the same clock tick
	// after it was hashed, and is hashed again ("racy", as git calls it).
	writtenAt int64
}

func newManifest() *manifest { return &manifest{} }

// lookup finds a file entry by path.
func (m *manifest) lookup(p string) *fileEntry {
	if i, ok := m.indexOf(p); ok {
		return &m.files[i]
	}
	return nil
}

func (m *manifest) indexOf(p string) (int, bool) {
	if m.byPath == nil {
		m.byPath = make(map[string]int, len(m.files))
		for i := range m.files {
			m.byPath[m.files[i].path] = i
		}
	}
	i, ok := m.byPath[p]
	return i, ok
}

// edit is a set of changes to the file entries, for the write path: the
// entries touched, by path, with nil for a removal. Untouched entries stay
// in the manifest's sorted slice.
type edit struct {
	m       *manifest
	changed map[string]*fileEntry
}

func (m *manifest) edit() *edit { return &edit{m: m, changed: map[string]*fileEntry{}} }

// get returns the entry for p, copied into the edit so it may be changed.
func (e *edit) get(p string) (*fileEntry, bool) {
	if f, ok := e.changed[p]; ok {
		return f, f != nil
	}
	if f := e.m.lookup(p); f != nil {
		c := *f
		e.changed[p] = &c
		return &c, true
	}
	return nil, false
}

func (e *edit) add(f *fileEntry) { e.changed[f.path] = f }

func (e *edit) remove(p string) { e.changed[p] = nil }

// each visits every entry the edit would leave.
func (e *edit) each(fn func(*fileEntry)) {
	for i := range e.m.files {
		f := &e.m.files[i]
		if c, ok := e.changed[f.path]; ok {
			if c != nil {
				fn(c)
			}
			continue
		}
		fn(f)
	}
	for p, c := range e.changed {
		if c != nil && e.m.lookup(p) == nil {
			fn(c)
		}
	}
}

// commit merges the edit into the sorted slice in one pass.
func (e *edit) commit() {
	var added []fileEntry
	for p, c := range e.changed {
		if c != nil && e.m.lookup(p) == nil {
			added = append(added, *c)
		}
	}
	sort.Slice(added, func(i, j int) bool { return added[i].path < added[j].path })
	out := make([]fileEntry, 0, len(e.m.files)+len(added))
	j := 0
	for i := range e.m.files {
		f := e.m.files[i]
		for j < len(added) && added[j].path < f.path {
			out = append(out, added[j])
			j++
		}
		if c, ok := e.changed[f.path]; ok {
			if c != nil {
				out = append(out, *c)
			}
			continue
		}
		out = append(out, f)
	}
	out = append(out, added[j:]...)
	e.m.files = out
	e.m.byPath = nil
}

func (m *manifest) setDirs(ds []dirEntry) {
	m.dirs = append(m.dirs[:0], ds...)
	sort.Slice(m.dirs, func(i, j int) bool { return m.dirs[i].path < m.dirs[j].path })
}

func (m *manifest) encode() []byte {
	m.Files, m.Dirs = len(m.files), len(m.dirs)
	hdr, _ := json.Marshal(m.header)
	le := binary.LittleEndian
	b := make([]byte, 0, len(hdr)+16+len(m.files)*96+len(m.dirs)*48)
	b = append(b, manifestMagic...)
	b = append(b, hdr...)
	b = append(b, '\n')
	path := func(p string) {
		b = le.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
	}
	for _, d := range m.dirs {
		path(d.path)
		b = le.AppendUint64(b, uint64(d.mtime))
		b = le.AppendUint64(b, uint64(d.ctime))
		b = le.AppendUint64(b, d.ino)
	}
	for i := range m.files {
		f := &m.files[i]
		path(f.path)
		b = append(b, f.hash[:]...)
		b = le.AppendUint64(b, uint64(f.size))
		b = le.AppendUint64(b, uint64(f.mtime))
		b = le.AppendUint64(b, uint64(f.ctime))
		b = le.AppendUint64(b, f.ino)
		b = le.AppendUint32(b, uint32(f.row))
		b = append(b, f.flags)
		for _, l := range f.lens {
			b = le.AppendUint32(b, l)
		}
		pinned := uint8(0)
		if f.meta.pinned {
			pinned = 1
		}
		b = append(b, f.meta.kind, f.meta.status, pinned)
		b = le.AppendUint64(b, uint64(f.meta.updated))
		b = le.AppendUint64(b, uint64(f.meta.created))
		b = le.AppendUint32(b, f.meta.session)
	}
	return le.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func decodeManifest(data []byte) (*manifest, error) {
	bad := func(why string) (*manifest, error) { return nil, fmt.Errorf("%w: manifest: %s", ErrCorrupt, why) }
	if len(data) < len(manifestMagic)+4 || string(data[:len(manifestMagic)]) != manifestMagic {
		return bad("bad magic")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("checksum mismatch")
	}
	nl := bytes.IndexByte(body, '\n')
	if nl < 0 {
		return bad("no header")
	}
	m := newManifest()
	if err := json.Unmarshal(body[len(manifestMagic):nl], &m.header); err != nil {
		return bad("header: " + err.Error())
	}
	le := binary.LittleEndian
	r := body[nl+1:]
	off := 0
	readPath := func() (string, bool) {
		if off+2 > len(r) {
			return "", false
		}
		n := int(le.Uint16(r[off:]))
		off += 2
		if off+n > len(r) {
			return "", false
		}
		// The path strings share the read buffer, which the manifest
		// keeps and never writes: no allocation per path.
		var p string
		if n > 0 {
			p = unsafe.String(&r[off], n)
		}
		off += n
		return p, true
	}
	if m.Dirs < 0 || m.Files < 0 || m.Dirs+m.Files > len(r) {
		return bad("counts out of range")
	}
	m.dirs = make([]dirEntry, m.Dirs)
	for i := range m.dirs {
		p, ok := readPath()
		if !ok || off+24 > len(r) {
			return bad("truncated dirs")
		}
		m.dirs[i] = dirEntry{path: p, mtime: int64(le.Uint64(r[off:])), ctime: int64(le.Uint64(r[off+8:])), ino: le.Uint64(r[off+16:])}
		off += 24
	}
	m.files = make([]fileEntry, m.Files)
	const rec = 20 + 8*4 + 4 + 1 + 4*numTextFields + 3 + 8 + 8 + 4
	for i := range m.files {
		p, ok := readPath()
		if !ok || off+rec > len(r) {
			return bad("truncated files")
		}
		f := &m.files[i]
		f.path = p
		copy(f.hash[:], r[off:off+20])
		f.size = int64(le.Uint64(r[off+20:]))
		f.mtime = int64(le.Uint64(r[off+28:]))
		f.ctime = int64(le.Uint64(r[off+36:]))
		f.ino = le.Uint64(r[off+44:])
		f.row = int32(le.Uint32(r[off+52:]))
		f.flags = r[off+56]
		for k := range f.lens {
			f.lens[k] = le.Uint32(r[off+57+4*k:])
		}
		mo := off + 57 + 4*numTextFields
		f.meta = docMeta{kind: r[mo], status: r[mo+1], pinned: r[mo+2] == 1, updated: int64(le.Uint64(r[mo+3:])),
			created: int64(le.Uint64(r[mo+11:])), session: le.Uint32(r[mo+19:])}
		off += rec
	}
	if off != len(r) {
		return bad("trailing bytes")
	}
	return m, nil
}

func loadManifest(path string) (*manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, fmt.Errorf("%w: read manifest: %v", ErrCorrupt, err)
	}
	m, err := decodeManifest(data)
	if err != nil {
		return nil, err
	}
	m.writtenAt = fi.ModTime().UnixNano()
	m.size = fi.Size()
	return m, nil
}

// unchangedOnDisk reports whether path still holds the manifest m was
// loaded from, so a writer can reuse it instead of reading it again.
func (m *manifest) unchangedOnDisk(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.ModTime().UnixNano() == m.writtenAt && fi.Size() == m.size
}

func (m *manifest) save(path string) error {
	m.Seq++
	stores, err := storeStats(filepath.Dir(path))
	if err != nil {
		return err
	}
	m.Stores = stores
	if err := writeAtomic(path, m.encode()); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		m.writtenAt, m.size = fi.ModTime().UnixNano(), fi.Size()
	}
	return nil
}

// avgLens are the mean analyzed lengths of the full-text fields over the
// indexed memories.
func (m *manifest) avgLens() [numTextFields]float64 {
	var sum [numTextFields]float64
	n := 0
	for i := range m.files {
		if m.files[i].flags&flagInvalid != 0 {
			continue
		}
		n++
		for k, l := range m.files[i].lens {
			sum[k] += float64(l)
		}
	}
	for k := range sum {
		if n > 0 {
			sum[k] /= float64(n)
		}
		if sum[k] < 1 {
			sum[k] = 1
		}
	}
	return sum
}

// indexedDocs counts entries that are in bleve.
func (m *manifest) indexedDocs() int {
	n := 0
	for i := range m.files {
		if m.files[i].flags&flagInvalid == 0 {
			n++
		}
	}
	return n
}

// dirOf is the directory part of a vault-relative path ("" at the root).
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
