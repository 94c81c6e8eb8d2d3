// Package index is the derived cache under a vault's .cache directory: a
// bleve full-text index and a vector store over the vault's memories, kept
// in sync with the files and rebuilt from them whenever it is missing,
// stale, damaged or made by another embedder. It is never the source of
// truth for anything.
//
// Every read first syncs: the manifest records the vault commit and, per
// file, the content hash and stat data last indexed, so a check costs a
// HEAD lookup and a stat walk, and only files whose stat changed are read
// and hashed. Hand edits are searchable at once; git checkouts, pulls and
// reverts are reflected the same way.
//
// Processes share the cache through file locks: readers hold a shared lock
// on the current generation, an update takes it exclusively for the few
// milliseconds an incremental batch needs, and a rebuild writes a new
// generation beside the old one and swaps a pointer, so no reader fails
// because another process holds the index.
package index
