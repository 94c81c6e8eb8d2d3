package vault

import "errors"

// Sentinel errors; the CLI maps them to exit codes.
var (
	// ErrNotVault means no vault was found where one was expected.
	ErrNotVault = errors.New("not a cairn vault")
	// ErrLocked means another process held the write lock for the whole wait.
	ErrLocked = errors.New("vault is locked")
	// ErrNotFound means no memory exists at a URI or revision.
	ErrNotFound = errors.New("not found")
	// ErrUnsafePath means a path would leave the vault (.., symlinks).
	ErrUnsafePath = errors.New("path escapes the vault")
)
