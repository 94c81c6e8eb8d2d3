package app

import (
	"errors"
	"fmt"

	"github.com/cairnmem/cairn/vault"
)

// Errors every surface maps to its own vocabulary (an exit code, an HTTP
// status, an MCP error). Errors of the domain packages keep their own
// sentinels (vault.ErrLocked, schema.ErrInvalid, extract.ErrSecret, ...).
var (
	// ErrBadRequest marks input a use case cannot act on: a bad kind, an
	// empty title, a date that is not one.
	ErrBadRequest = errors.New("bad request")
	// ErrNotFound marks a memory, revision or vault that is not there. It
	// is the vault's own sentinel, so a memory missing on disk and one
	// missing from history read the same.
	ErrNotFound = vault.ErrNotFound
	// ErrConflict marks a write that would overwrite a change its author
	// never saw, or create a file that exists.
	ErrConflict = errors.New("conflict")
)

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}
