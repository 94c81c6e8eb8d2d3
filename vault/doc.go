// Package vault owns memory files and their history: a vault is a directory
// of markdown memories that is also a git repository, driven through go-git.
//
// Writes go through Update: a cross-process lock serializes writers, each
// file is replaced atomically (temp file, fsync, rename), and one commit per
// batch records the change with Cairn-* trailers. The commit is built from
// the HEAD tree plus the batch, so its cost tracks the directories touched,
// not the size of the vault. Readers never take the lock: the branch ref is
// replaced by rename, so a reader sees the old commit or the new one.
//
// The package knows nothing of indexes or scoring.
package vault
