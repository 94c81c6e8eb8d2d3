package index

import "errors"

// Sentinel errors.
var (
	// ErrCorrupt means a cache file could not be read back; the cache is
	// rebuilt from the vault when this happens.
	ErrCorrupt = errors.New("index cache is damaged")
	// ErrLocked means another process kept the cache busy past the timeout.
	ErrLocked = errors.New("index cache is busy")
	// ErrEmbedderUnavailable means the embedding server could not be used;
	// search falls back to full text.
	ErrEmbedderUnavailable = errors.New("embedder unavailable")
)

// ErrNotIndexed means a memory is not in the index (missing or invalid).
var ErrNotIndexed = errors.New("not found")
