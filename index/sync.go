package index

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/cairnmem/cairn/schema"
)

// delta is how the work tree differs from what a manifest indexed.
type delta struct {
	m        *manifest // the manifest the delta was computed against
	head     string
	scan     *scanResult
	changed  map[string][20]byte // new or modified content, with its hash
	removed  []string
	statOnly []string // stat changed, content did not
}

// blobHash is git's object id of a file's content, so hashes in the
// manifest can be compared with the vault's trees.
func blobHash(data []byte) [20]byte {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	var out [20]byte
	copy(out[:], h.Sum(nil))
	return out
}

// diff compares the manifest with the vault: its HEAD, and a stat walk of
// the work tree in which only files whose stat changed are read and hashed.
func (ix *Index) diff(m *manifest) (*delta, error) {
	head, err := ix.v.Head()
	if err != nil {
		return nil, err
	}
	sr, err := scan(ix.v.Root, m)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", ix.v.Root, err)
	}
	d := &delta{m: m, head: head, scan: sr, changed: map[string][20]byte{}, removed: sr.deleted}
	for _, p := range sr.suspect {
		_, h, err := readMemory(filepath.Join(ix.v.Root, filepath.FromSlash(p)), p)
		if err != nil && !errors.Is(err, schema.ErrInvalid) {
			if errors.Is(err, os.ErrNotExist) {
				d.removed = append(d.removed, p)
				continue
			}
			return nil, err
		}
		if e := m.lookup(p); e != nil && e.hash == h {
			d.statOnly = append(d.statOnly, p)
			continue
		}
		d.changed[p] = h
	}
	return d, nil
}

// needsWrite reports whether the cache must change: content to index, a
// new HEAD to record, or stat data to refresh so the next check is cheap.
func (d *delta) needsWrite(m *manifest) bool {
	return len(d.changed) > 0 || len(d.removed) > 0 || len(d.statOnly) > 0 || d.scan.dirty || d.head != m.Commit
}

// update applies the vault's changes to the current generation in place
// and returns the manifest sequence it wrote. It holds the writer lock
// and, for the few milliseconds of the batch, the generation's exclusive
// lock. hint is a delta a reader computed; it is reused when no other
// process wrote the manifest since.
func (ix *Index) update(ctx context.Context, hint *delta) (uint64, error) {
	wl, err := ix.writerLock(ctx)
	if err != nil {
		return 0, err
	}
	defer wl.unlock()
	ok, err := ix.l.ensure()
	if err != nil {
		return 0, err
	}
	gen, err := ix.l.current()
	if !ok || err != nil || gen == "" {
		return 0, ix.rebuildLocked(ctx, "no usable index")
	}
	ts, err := lockFile(ctx, ix.l.path("turnstile.lock"), false, ix.opts.LockTimeout)
	if err != nil {
		return 0, err
	}
	defer ts.unlock()
	gl, err := lockFile(ctx, ix.genPath(gen, "lock"), false, ix.opts.LockTimeout)
	if err != nil {
		return 0, err
	}
	defer gl.unlock()
	mpath := ix.genPath(gen, "manifest.bin")
	m, d, err := ix.manifestAndDelta(gen, mpath, hint)
	if err != nil {
		return 0, err
	}
	if !d.needsWrite(m) {
		return m.Seq, nil // another process got here first
	}
	files := m.edit()
	if len(d.changed) > 0 || len(d.removed) > 0 {
		if err := ix.writeDelta(ctx, gen, m, files, d); err != nil {
			return 0, err
		}
	}
	for _, p := range d.statOnly {
		if s, ok := d.scan.statOf(p); ok {
			if e, ok := files.get(p); ok {
				e.setStat(s)
			}
		}
	}
	files.commit()
	m.setDirs(d.scan.dirs)
	m.Commit = d.head
	m.Docs = m.indexedDocs()
	if err := m.save(mpath); err != nil {
		return 0, err
	}
	return m.Seq, nil
}

// manifestAndDelta is the generation's manifest and what changed since
// it: the reader's work (hint) when nobody wrote since it looked, else
// read afresh. A manifest this index cannot serve is errRebuild.
func (ix *Index) manifestAndDelta(gen, mpath string, hint *delta) (*manifest, *delta, error) {
	var m *manifest
	var err error
	d := hint
	if d != nil && d.m.unchangedOnDisk(mpath) {
		m = d.m // nobody wrote since the reader looked: its work stands
	} else {
		if m, err = loadManifest(mpath); err != nil {
			return nil, nil, fmt.Errorf("%w: %v", errRebuild, err)
		}
		d = nil
	}
	if !ix.serves(m) {
		return nil, nil, fmt.Errorf("%w: embedder changed", errRebuild)
	}
	if err := m.checkStores(ix.l.genDir(gen)); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errRebuild, err)
	}
	if d == nil {
		if d, err = ix.diff(m); err != nil {
			return nil, nil, err
		}
	}
	return m, d, nil
}

// writeDelta applies changed and removed memories to the generation's
// bleve index; one whose size disagrees with the manifest is errRebuild.
func (ix *Index) writeDelta(ctx context.Context, gen string, m *manifest, files *edit, d *delta) error {
	bi, err := bleve.OpenUsing(ix.genPath(gen, "bleve"), updateConfig())
	if err != nil {
		return fmt.Errorf("%w: open bleve index for writing: %v", errRebuild, err)
	}
	if n, err := bi.DocCount(); err != nil || int(n) != m.Docs {
		bi.Close()
		return fmt.Errorf("%w: bleve holds %d documents, the manifest %d", errRebuild, n, m.Docs)
	}
	err = ix.apply(ctx, gen, bi, m, files, d)
	if err == nil {
		err = mergeNow(ctx, bi)
	}
	if cerr := bi.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close bleve index: %w", cerr)
	}
	return err
}

// parsed is one changed file read for indexing.
type parsed struct {
	path string
	hash [20]byte
	mem  *schema.Memory // nil when invalid
	err  error
}

// load reads one memory file once: its hash and, when valid, its memory.
func (ix *Index) load(p string) parsed {
	data, h, err := readMemory(filepath.Join(ix.v.Root, filepath.FromSlash(p)), p)
	if err != nil {
		return parsed{path: p, hash: h, err: err}
	}
	out := parsed{path: p, hash: h}
	u, err := schema.URIFromRelPath(p, ix.v.Scope)
	if err != nil {
		out.err = err
		return out
	}
	m, err := schema.Parse(p, data)
	if err == nil {
		err = m.Validate(p)
	}
	if err != nil {
		out.err = err
		return out
	}
	m.URI = u
	out.mem = m
	return out
}

// apply indexes changed files and drops removed ones: bleve first, then
// vectors; the manifest written afterwards is the commit point, so a crash
// in between only means the same changes are applied again.
func (ix *Index) apply(ctx context.Context, gen string, bi bleve.Index, m *manifest, files *edit, d *delta) error {
	b := bi.NewBatch()
	var vw *vectorWriter
	if ix.emb != nil && m.Fallback == nil {
		var err error
		if vw, err = openVectorWriter(ix.genPath(gen, "vectors.f32"), m.Embedder.Dims); err != nil {
			return fmt.Errorf("%w: %v", errRebuild, err)
		}
	}
	free := freeRows(files, vw)
	for _, p := range d.removed {
		e, ok := files.get(p)
		if !ok {
			continue
		}
		b.Delete(docIDOf(p))
		if e.row >= 0 && vw != nil {
			if err := vw.clear(int(e.row)); err != nil {
				vw.close()
				return err
			}
			free = append(free, e.row)
		}
		files.remove(p)
	}
	paths := make([]string, 0, len(d.changed))
	for p := range d.changed {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	stat := func(p string) fileStat { s, _ := d.scan.statOf(p); return s }
	if err := ix.stage(ctx, b, vw, files, ix.loadAll(paths), stat, &free); err != nil {
		if vw != nil {
			vw.close()
		}
		return err
	}
	if err := bi.Batch(b); err != nil {
		if vw != nil {
			vw.close()
		}
		return fmt.Errorf("index batch: %w", err)
	}
	if vw != nil {
		if err := vw.close(); err != nil {
			return err
		}
		m.Rows = vw.rows
	}
	return nil
}

// docIDOf is the bleve id of a memory file: its path without ".md".
func docIDOf(p string) string { return p[:len(p)-len(".md")] }

// stage adds parsed files to a bleve batch and their vectors to the store,
// recording each in the manifest edit.
func (ix *Index) stage(ctx context.Context, b *bleve.Batch, vw *vectorWriter, files *edit, docs []parsed, stat func(string) fileStat, free *[]int32) error {
	var texts []string
	var embedFor []*fileEntry
	for _, p := range docs {
		e, ok := files.get(p.path)
		if !ok {
			e = &fileEntry{path: p.path, row: -1}
			files.add(e)
		}
		e.hash = p.hash
		e.setStat(stat(p.path))
		if p.err != nil {
			e.lens = [numTextFields]uint32{}
			e.meta = docMeta{}
			ix.warn("invalid:"+p.path+string(p.hash[:]), fmt.Sprintf("skipping invalid memory: %v", p.err))
			b.Delete(docIDOf(p.path))
			e.flags = flagInvalid
			if e.row >= 0 && vw != nil {
				_ = vw.clear(int(e.row))
				*free = append(*free, e.row)
			}
			e.row = -1
			continue
		}
		e.flags = 0
		e.lens = fieldLens(p.mem)
		e.meta = metaOf(p.mem)
		if err := b.Index(docIDOf(p.path), bleveDoc(p.mem)); err != nil {
			return fmt.Errorf("index %s: %w", p.path, err)
		}
		if vw != nil {
			texts = append(texts, embedText(p.mem))
			embedFor = append(embedFor, e)
		}
	}
	if vw == nil || len(texts) == 0 {
		return nil
	}
	vecs, err := ix.emb.EmbedDocs(ctx, texts)
	if err != nil {
		ix.warn("embed", fmt.Sprintf("%v; these memories are searchable by full text only until the embedder is back", err))
		for _, e := range embedFor {
			e.flags |= flagNoVector
			if e.row >= 0 {
				_ = vw.clear(int(e.row)) // an old vector would describe old content
				*free = append(*free, e.row)
				e.row = -1
			}
		}
		return nil
	}
	for i, e := range embedFor {
		if e.row < 0 {
			if n := len(*free); n > 0 {
				e.row, *free = (*free)[n-1], (*free)[:n-1]
			} else {
				e.row = int32(vw.rows)
			}
		}
		if err := vw.set(int(e.row), vecs[i]); err != nil {
			return err
		}
	}
	return nil
}

// freeRows lists vector rows no file uses, lowest last, to be reused.
func freeRows(files *edit, vw *vectorWriter) []int32 {
	if vw == nil {
		return nil
	}
	used := make([]bool, vw.rows)
	files.each(func(e *fileEntry) {
		if e.row >= 0 && int(e.row) < len(used) {
			used[e.row] = true
		}
	})
	var free []int32
	for i := len(used) - 1; i >= 0; i-- {
		if !used[i] {
			free = append(free, int32(i))
		}
	}
	return free
}
