package index

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// rebuildBatch is how many memories go into one bleve batch.
const rebuildBatch = 500

// Rebuild builds a fresh generation from the vault's files and makes it
// current. Readers keep using the old generation until the swap.
func (ix *Index) Rebuild(ctx context.Context, reason string) error {
	wl, err := ix.writerLock(ctx)
	if err != nil {
		return err
	}
	defer wl.unlock()
	return ix.rebuildLocked(ctx, reason)
}

func (ix *Index) rebuildLocked(ctx context.Context, reason string) error {
	if reason != "" {
		ix.warn("rebuild:"+reason, fmt.Sprintf("rebuilding the index of %s: %s", ix.v.Root, reason))
	}
	ok, err := ix.l.ensure()
	if err != nil {
		return err
	}
	if !ok {
		for _, g := range ix.l.generations("") {
			ix.dropGen(g)
		}
	}
	gen, err := ix.l.newGen()
	if err != nil {
		return err
	}
	if err := ix.build(ctx, gen); err != nil {
		os.RemoveAll(ix.l.genDir(gen))
		return err
	}
	if err := ix.l.writeVersion(); err != nil {
		return err
	}
	if err := ix.l.setCurrent(gen); err != nil {
		return err
	}
	for _, g := range ix.l.generations(gen) {
		ix.dropGen(g)
	}
	return nil
}

// dropGen removes a generation no reader holds; one still in use is left
// for a later rebuild to remove.
func (ix *Index) dropGen(gen string) {
	lk, ok := tryLock(ix.genPath(gen, "lock"))
	if !ok {
		return
	}
	_ = os.RemoveAll(ix.l.genDir(gen))
	lk.unlock()
	// Windows cannot remove the lock file while it is open: once unlocked,
	// a second pass removes it and the directory (elsewhere a no-op).
	_ = os.RemoveAll(ix.l.genDir(gen))
}

func (ix *Index) build(ctx context.Context, gen string) error {
	bi, err := bleve.NewUsing(ix.genPath(gen, "bleve"), newMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("create bleve index: %w", err)
	}
	m := newManifest()
	m.Embedder = ix.embedderInfo()
	// Stat before reading, so a file changed during the build shows up as
	// changed at the next check.
	sr, err := scan(ix.v.Root, m)
	if err != nil {
		bi.Close()
		return err
	}
	head, err := ix.v.Head()
	if err != nil {
		bi.Close()
		return err
	}
	paths := make([]string, 0, len(sr.added))
	for p := range sr.added {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	files := m.edit()
	stat := func(p string) fileStat { return sr.added[p] }

	var vw *vectorWriter
	if ix.emb != nil {
		if vw, err = openVectorWriter(ix.genPath(gen, "vectors.f32"), 0); err != nil {
			bi.Close()
			return err
		}
		// The store's size comes from the embedder, not from the first
		// memory: an empty vault must record it too.
		vw.dims = ix.emb.Info().Dims
		m.Embedder = ix.emb.Info()
	}
	if vw, err = ix.indexBatches(ctx, gen, bi, m, vw, paths, files, stat); err != nil {
		bi.Close()
		return err
	}
	if vw != nil {
		if err := vw.close(); err != nil {
			bi.Close()
			return err
		}
		m.Rows = vw.rows
		m.Embedder.Dims = vw.dims
	} else if ix.emb != nil && len(paths) > 0 {
		configured := ix.emb.Info()
		m.Embedder, m.Fallback = EmbedderInfo{Name: noneName}, &configured
	}
	if err := bi.Close(); err != nil {
		return fmt.Errorf("close bleve index: %w", err)
	}
	files.commit()
	m.setDirs(sr.dirs)
	m.Commit = head
	m.Docs = m.indexedDocs()
	return m.save(ix.genPath(gen, "manifest.bin"))
}

// indexBatches indexes the memories at paths in batches, reporting
// progress, and returns the vector writer still in use: nil when the
// embedder failed to say its size and the index became full-text only.
func (ix *Index) indexBatches(ctx context.Context, gen string, bi bleve.Index, m *manifest, vw *vectorWriter, paths []string, files *edit, stat func(string) fileStat) (*vectorWriter, error) {
	free := []int32{}
	total := len(paths)
	if ix.opts.Progress != nil {
		ix.opts.Progress(0, total)
	}
	for start := 0; start < total; start += rebuildBatch {
		if err := ctx.Err(); err != nil {
			return vw, err
		}
		chunk := paths[start:min(start+rebuildBatch, total)]
		docs := ix.loadAll(chunk)
		if vw != nil && vw.dims == 0 {
			// Remote embedders learn their size from the first answer.
			if err := ix.sizeVectors(ctx, vw, m, docs); err != nil {
				ix.warn("embed", fmt.Sprintf("%v; building a full-text-only index", err))
				vw.f.Close()
				os.Remove(ix.genPath(gen, "vectors.f32"))
				vw = nil
			}
		}
		b := bi.NewBatch()
		if err := ix.stage(ctx, b, vw, files, docs, stat, &free); err != nil {
			return vw, err
		}
		if err := bi.Batch(b); err != nil {
			return vw, fmt.Errorf("index batch: %w", err)
		}
		if ix.opts.Progress != nil {
			ix.opts.Progress(min(start+rebuildBatch, total), total)
		}
	}
	return vw, nil
}

// sizeVectors fixes the vector store's dimensions from the embedder.
func (ix *Index) sizeVectors(ctx context.Context, vw *vectorWriter, m *manifest, docs []parsed) error {
	dims := ix.emb.Info().Dims
	if dims == 0 {
		v, err := ix.emb.EmbedQuery(ctx, "dimension probe", nil)
		if err != nil {
			return err
		}
		dims = len(v)
	}
	vw.dims = dims
	m.Embedder = ix.emb.Info()
	m.Embedder.Dims = dims
	return nil
}

// loadAll reads files on all cores.
func (ix *Index) loadAll(paths []string) []parsed {
	out := make([]parsed, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = ix.load(paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// writerLock serializes processes that change the cache.
func (ix *Index) writerLock(ctx context.Context) (*fileLock, error) {
	if err := os.MkdirAll(ix.l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("create cache %s: %w", ix.l.dir, err)
	}
	return lockFile(ctx, ix.l.path("writer.lock"), false, ix.opts.LockTimeout)
}
