package index

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/atomicfile"
)

// The cache under <vault>/.cache:
//
//	CACHEDIR.TAG   marks it for backup tools as disposable
//	version        cache format; a mismatch rebuilds everything
//	writer.lock    serializes processes that change the cache
//	current        names the generation readers use
//	gen-<id>/      one generation: bleve/, vectors.f32, manifest.bin, lock
//
// Incremental updates change the current generation in place under its
// exclusive lock. A rebuild writes a new generation beside it and swaps
// the current pointer by rename, so readers are never without an index.
const (
	// CacheDir is the cache's directory name inside a vault.
	CacheDir = ".cache"

	formatVersion = "cairn-index 8"
	cacheTag      = "Signature: 8a477f597d28d172789f06886806bc55\n" +
		"# This file is a cache directory tag created by cairn.\n" +
		"# The directory is derived from the vault and rebuilt when missing.\n" +
		"# For information about cache directory tags see https://bford.info/cachedir/\n"
	genPrefix = "gen-"
)

type layout struct{ dir string }

func (l layout) path(parts ...string) string {
	return filepath.Join(append([]string{l.dir}, parts...)...)
}

func (l layout) genDir(gen string) string { return l.path(gen) }

// ensure creates the cache directory with its tag. It reports whether the
// format version on disk matches this build (true for a new cache).
func (l layout) ensure() (bool, error) {
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return false, fmt.Errorf("create cache %s: %w", l.dir, err)
	}
	if _, err := os.Stat(l.path("CACHEDIR.TAG")); err != nil {
		if err := writeAtomic(l.path("CACHEDIR.TAG"), []byte(cacheTag)); err != nil {
			return false, err
		}
	}
	v, err := atomicfile.ReadFile(l.path("version"))
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(v)) == formatVersion, nil
}

func (l layout) writeVersion() error {
	return writeAtomic(l.path("version"), []byte(formatVersion+"\n"))
}

// current returns the generation readers should use, or "" when none.
func (l layout) current() (string, error) {
	b, err := atomicfile.ReadFile(l.path("current"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	gen := strings.TrimSpace(string(b))
	if !strings.HasPrefix(gen, genPrefix) || strings.ContainsAny(gen, `/\`) {
		return "", fmt.Errorf("%w: %s names %q", ErrCorrupt, l.path("current"), gen)
	}
	return gen, nil
}

func (l layout) setCurrent(gen string) error {
	return writeAtomic(l.path("current"), []byte(gen+"\n"))
}

// newGen creates an empty generation directory with a sortable, unique name.
func (l layout) newGen() (string, error) {
	var rnd [3]byte
	_, _ = rand.Read(rnd[:])
	gen := fmt.Sprintf("%s%s-%s", genPrefix, time.Now().UTC().Format("20060102T150405.000000"), hex.EncodeToString(rnd[:]))
	return gen, os.MkdirAll(l.genDir(gen), 0o755)
}

// generations lists generation directories other than keep.
func (l layout) generations(keep string) []string {
	es, _ := os.ReadDir(l.dir)
	var out []string
	for _, e := range es {
		if e.IsDir() && strings.HasPrefix(e.Name(), genPrefix) && e.Name() != keep {
			out = append(out, e.Name())
		}
	}
	return out
}

// writeAtomic replaces path with data via a synced temp file and rename.
// The temp name is unique per call: two goroutines of one process (an MCP
// server answering requests at once) write the same file too.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := atomicfile.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
