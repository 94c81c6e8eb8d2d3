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
// Index finds candidates and computes their signals; it does not rank
// across signals (retrieve does). The text signal is BM25F over the
// memory's fields read from the postings (bm25.go), blended with a ranking
// by the query's informative words and expanded with pseudo-relevance
// feedback for long memories or the vault's own word associations for
// short ones (expansion.go); memories from one agent session are then
// scored in the context of their neighbours and their session
// (context.go). Each text hit also carries its coverage of the query's
// most informative words (querystats.go).
//
// Processes share the cache through file locks: readers hold a shared lock
// on the current generation, an update takes it exclusively for the few
// milliseconds an incremental batch needs, and a rebuild writes a new
// generation beside the old one and swaps a pointer, so no reader fails
// because another process holds the index.
package index
