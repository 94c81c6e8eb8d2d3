// Package index is the derived cache under .memory/.cache: full-text and
// vector indexes over a vault's memories, kept in sync with the files and
// rebuilt from them whenever it is missing, stale or damaged. It is never
// the source of truth for anything.
package index
