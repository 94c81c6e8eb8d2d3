package vault

import (
	"context"

	"github.com/cairnmem/cairn/schema"
)

// Reader reads memories as they are in the work tree now, hand edits
// included.
type Reader interface {
	Read(uri schema.URI) (*schema.Memory, error)
	Exists(uri schema.URI) bool
}

// Lister enumerates the memories of a vault.
type Lister interface {
	List(opts ListOptions) ([]Entry, error)
}

// Writer changes memories; every successful Update is one commit.
type Writer interface {
	Update(ctx context.Context, meta CommitMeta, fn func(*Tx) error) (CommitResult, error)
}

// Historian answers questions about the past of a vault.
type Historian interface {
	Log(opts LogOptions) ([]Commit, error)
	Show(rev string, uri schema.URI) ([]byte, error)
	Blame(uri schema.URI) ([]BlameLine, error)
	Diff(opts DiffOptions) ([]FileDiff, error)
}

// Store is everything a vault does.
type Store interface {
	Reader
	Lister
	Writer
	Historian
}

var _ Store = (*Vault)(nil)
