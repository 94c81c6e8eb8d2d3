package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// DefaultLockTimeout bounds waits for other processes using the cache.
const DefaultLockTimeout = 10 * time.Second

// Options configures an Index.
type Options struct {
	// Embedder overrides the one cairn.yaml names (tests, benchmarks).
	Embedder Embedder
	// NoEmbedder disables vectors even when cairn.yaml names an embedder.
	NoEmbedder bool
	// LockTimeout bounds waits for other processes.
	LockTimeout time.Duration
	// Progress, when set, is told how a rebuild advances.
	Progress func(done, total int)
	// Warn receives notices meant for a person: a rebuild and its reason,
	// an embedder that is down, invalid files skipped.
	Warn func(msg string)
}

// Index is the cache of one vault. It holds no files open between calls,
// so it is cheap to keep and safe to share among goroutines.
type Index struct {
	v    *vault.Vault
	l    layout
	emb  Embedder
	opts Options

	mu     sync.Mutex
	warned map[string]bool
	// embedDown is the first warning about the embedder, repeated in
	// search results so that a surface shows one message, not two.
	embedDown string
}

// Open prepares the cache of v. Nothing is read until the first query.
func Open(v *vault.Vault, opts Options) (*Index, error) {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	emb := opts.Embedder
	if emb == nil && !opts.NoEmbedder {
		var err error
		if emb, err = NewEmbedder(v.Config.Index); err != nil {
			return nil, err
		}
	}
	return &Index{v: v, l: layout{dir: filepath.Join(v.Root, CacheDir)}, emb: emb, opts: opts, warned: map[string]bool{}}, nil
}

// Vault returns the vault this index covers.
func (ix *Index) Vault() *vault.Vault { return ix.v }

// Scope is the scope of the vault's memories.
func (ix *Index) Scope() schema.Scope { return ix.v.Scope }

// Dir is the cache directory.
func (ix *Index) Dir() string { return ix.l.dir }

// Embedder returns the embedder, or nil when vectors are off.
func (ix *Index) Embedder() Embedder { return ix.emb }

// warn tells a person something once per Index.
func (ix *Index) warn(key, msg string) {
	ix.mu.Lock()
	seen := ix.warned[key]
	ix.warned[key] = true
	if key == "embed" && !seen {
		ix.embedDown = msg
	}
	ix.mu.Unlock()
	if !seen && ix.opts.Warn != nil {
		ix.opts.Warn(msg)
	}
}

// snapshot is an open, consistent view of the current generation. While
// it is open no process changes the generation.
type snapshot struct {
	ix   *Index
	gen  string
	lock *fileLock
	m    *manifest
	bi   bleve.Index // opened on first use
	vec  *vectorFile // mapped on first use
}

// index opens the generation's bleve index read-only, once. bolt and zap
// panic on some damaged files: that, too, means a rebuild.
func (s *snapshot) index() (_ bleve.Index, err error) {
	if s.bi != nil {
		return s.bi, nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: open bleve index: %v", errRebuild, r)
		}
	}()
	bi, err := bleve.OpenUsing(s.ix.genPath(s.gen, "bleve"), map[string]any{"read_only": true, "bolt_timeout": s.ix.opts.LockTimeout.String()})
	if err != nil {
		return nil, fmt.Errorf("%w: open bleve index: %v", errRebuild, err)
	}
	if n, err := bi.DocCount(); err != nil || int(n) != s.m.Docs {
		bi.Close()
		return nil, fmt.Errorf("%w: bleve holds %d documents, the manifest %d", errRebuild, n, s.m.Docs)
	}
	s.bi = bi
	return bi, nil
}

// vectors maps the generation's vector store, once; nil without vectors.
func (s *snapshot) vectors() (*vectorFile, error) {
	if s.vec != nil || s.ix.emb == nil || s.m.Embedder.Name == noneName {
		return s.vec, nil
	}
	path := s.ix.genPath(s.gen, "vectors.f32")
	if err := s.m.checkVectors(path); err != nil {
		return nil, fmt.Errorf("%w: %v", errRebuild, err)
	}
	v, err := openVectors(path, s.m.Embedder.Dims)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errRebuild, err)
	}
	s.vec = v
	return v, nil
}

func (s *snapshot) close() {
	if s.vec != nil {
		s.vec.close()
	}
	if s.bi != nil {
		_ = s.bi.Close()
	}
	s.lock.unlock()
}

var (
	// errRetry means the current generation changed under us.
	errRetry = errors.New("generation changed")
	// errRebuild carries why the cache must be rebuilt.
	errRebuild = errors.New("cache needs a rebuild")
	// errFirstBuild is a cache that was never built: built silently.
	errFirstBuild = fmt.Errorf("%w: no index yet", errRebuild)
)

func (ix *Index) genPath(gen string, parts ...string) string {
	return filepath.Join(append([]string{ix.l.genDir(gen)}, parts...)...)
}

// embedderInfo is what the manifest of a fresh cache records.
func (ix *Index) embedderInfo() EmbedderInfo {
	if ix.emb == nil {
		return EmbedderInfo{Name: noneName}
	}
	return ix.emb.Info()
}

// serves reports whether a cache made by stored can serve the embedder
// configured now: it was made by it, or it is the full-text fallback
// built while that embedder was down.
func (ix *Index) serves(m *manifest) bool {
	now := ix.embedderInfo()
	if sameEmbedder(m.Embedder, now) {
		return true
	}
	return m.Embedder.Name == noneName && m.Fallback != nil && sameEmbedder(*m.Fallback, now)
}

// sameEmbedder compares what made stored vectors with what is configured.
// Remote embedders learn their dimensions from the server, so only the
// name, model and version must match.
func sameEmbedder(stored, now EmbedderInfo) bool {
	if stored.Name != now.Name || stored.Model != now.Model || stored.Version != now.Version {
		return false
	}
	return now.Dims == 0 || stored.Dims == now.Dims
}

// openSnapshot opens the current generation for reading.
func (ix *Index) openSnapshot(ctx context.Context) (*snapshot, error) {
	ok, err := ix.l.ensure()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: cache format changed", errRebuild)
	}
	gen, err := ix.l.current()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errRebuild, err)
	}
	if gen == "" {
		return nil, errFirstBuild
	}
	if _, err := os.Stat(ix.l.genDir(gen)); err != nil {
		if cur, _ := ix.l.current(); cur != gen {
			return nil, errRetry
		}
		return nil, fmt.Errorf("%w: generation %s is missing", errRebuild, gen)
	}
	// Pass through the turnstile: a writer waiting for the generation holds
	// it, so a stream of readers cannot starve the writer.
	ts, err := lockFile(ctx, ix.l.path("turnstile.lock"), true, ix.opts.LockTimeout)
	if err != nil {
		return nil, err
	}
	lk, err := lockFile(ctx, ix.genPath(gen, "lock"), true, ix.opts.LockTimeout)
	ts.unlock()
	if err != nil {
		return nil, err
	}
	s := &snapshot{ix: ix, gen: gen, lock: lk}
	fail := func(err error) (*snapshot, error) {
		s.close()
		return nil, err
	}
	if cur, _ := ix.l.current(); cur != gen {
		return fail(errRetry)
	}
	s.m, err = loadManifest(ix.genPath(gen, "manifest.bin"))
	if err != nil {
		return fail(fmt.Errorf("%w: %v", errRebuild, err))
	}
	if !ix.serves(s.m) {
		return fail(fmt.Errorf("%w: embedder changed from %s to %s", errRebuild, describeEmbedder(s.m.Embedder), describeEmbedder(ix.embedderInfo())))
	}
	if err := s.m.checkStores(ix.l.genDir(gen)); err != nil {
		return fail(fmt.Errorf("%w: %v", errRebuild, err))
	}
	return s, nil
}

func describeEmbedder(e EmbedderInfo) string {
	s := e.Name
	if e.Model != "" {
		s += " " + e.Model
	}
	if e.Dims > 0 {
		s += fmt.Sprintf(" (%d dims)", e.Dims)
	}
	return s
}

// maxAttempts bounds how often a read retries when other processes keep
// changing the vault or the cache under it.
const maxAttempts = 6

// view syncs the cache with the vault and calls fn on a snapshot that is
// current: the vault's files as they are now, hand edits included.
func (ix *Index) view(ctx context.Context, fn func(*snapshot) error) error {
	var last error
	updates := 0
	var wrote uint64
	repaired := false // a damaged cache is rebuilt once per call
	served := func(s *snapshot) (bool, error) {
		err := ix.serve(ctx, s, fn)
		if !errors.Is(err, errRebuild) {
			return true, err
		}
		if repaired {
			return true, fmt.Errorf("index: %v (even after a rebuild of the cache)", err)
		}
		repaired, last = true, err
		return false, nil
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := ix.openSnapshot(ctx)
		switch {
		case errors.Is(err, errRetry):
			last = err
			continue
		case errors.Is(err, errRebuild):
			last = err
			reason := err.Error()
			if err == errFirstBuild {
				reason = ""
			}
			if err := ix.Rebuild(ctx, reason); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		}
		// A manifest this call just wrote is current: the files were
		// checked under the writer lock a moment ago.
		if wrote != 0 && s.m.Seq == wrote {
			if done, err := served(s); done {
				return err
			}
			continue
		}
		d, err := ix.diff(s.m)
		if err != nil {
			s.close()
			return err
		}
		// After two updates of our own, serve what we have: it is as
		// fresh as other writers allow, and a reader must not fail.
		if !d.needsWrite(s.m) || updates >= 2 {
			if done, err := served(s); done {
				return err
			}
			continue
		}
		s.close()
		updates++
		if wrote, err = ix.update(ctx, d); err != nil {
			if !errors.Is(err, errRebuild) {
				return err
			}
			if err := ix.Rebuild(ctx, err.Error()); err != nil {
				return err
			}
		}
		last = errors.New("the vault kept changing")
	}
	return fmt.Errorf("index: giving up after %d attempts: %v", maxAttempts, last)
}

// serve runs fn on a current snapshot and closes it. A damaged index found
// on the way (an error or a panic reading it) is rebuilt, and the caller
// tries again.
func (ix *Index) serve(ctx context.Context, s *snapshot, fn func(*snapshot) error) (err error) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: reading the cache failed: %v", errRebuild, r)
			}
		}()
		err = fn(s)
	}()
	s.close()
	if errors.Is(err, errRebuild) {
		if rerr := ix.Rebuild(ctx, err.Error()); rerr != nil {
			return rerr
		}
	}
	return err
}

// Sync brings the cache up to date with the vault without searching.
func (ix *Index) Sync(ctx context.Context) error {
	return ix.view(ctx, func(*snapshot) error { return nil })
}
