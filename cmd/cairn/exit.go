package main

import (
	"context"
	"errors"
	"github.com/cairnmem/cairn/app"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/exchange"
	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/extract/bench"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Exit codes are part of cairn's interface: scripts and hooks rely on them.
const (
	ExitOK       = 0
	ExitFailure  = 1 // a check ran and failed (doctor, commit with invalid files)
	ExitUsage    = 2
	ExitNotVault = 3
	ExitInvalid  = 4
	ExitLocked   = 5
	ExitNotFound = 6
	ExitInternal = 10
)

// exitCode is the one place errors become exit codes.
func exitCode(err error) int {
	var se *silentError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &se):
		return se.code
	case errors.Is(err, errUsage), errors.Is(err, app.ErrBadRequest), errors.Is(err, schema.ErrBadURI), errors.Is(err, vault.ErrUnsafePath), errors.Is(err, exchange.ErrFormat):
		return ExitUsage
	case errors.Is(err, vault.ErrNotVault):
		return ExitNotVault
	case errors.Is(err, schema.ErrInvalid), errors.Is(err, config.ErrInvalid), errors.Is(err, extract.ErrSecret), errors.Is(err, vault.ErrInvalidFiles), errors.Is(err, bench.ErrLabels):
		return ExitInvalid
	case errors.Is(err, vault.ErrLocked), errors.Is(err, index.ErrLocked):
		return ExitLocked
	case errors.Is(err, vault.ErrNotFound), errors.Is(err, index.ErrNotIndexed), errors.Is(err, vault.ErrNoRemote):
		return ExitNotFound
	case errors.Is(err, errAborted), errors.Is(err, app.ErrConflict), errors.Is(err, context.Canceled):
		return ExitFailure
	default:
		return ExitInternal
	}
}

var (
	// errUsage marks a bad combination of arguments kong cannot catch.
	errUsage = errors.New("usage")
	// errAborted marks a user's decision to stop (empty edit, declined prompt).
	errAborted = errors.New("aborted")
)

// silentError exits with code after the command already told the user
// what went wrong (doctor's report, commit's list of rejected files).
type silentError struct{ code int }

func (e *silentError) Error() string { return "" }
