package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// DefaultLockTimeout bounds how long a writer waits for another. Writers
// hold the lock for milliseconds, so a long wait means a stuck process.
const DefaultLockTimeout = 10 * time.Second

// lockFile lives in the git directory: never committed, never deleted with
// the cache.
const lockFile = "cairn.lock"

// lockPoll is how often a waiting writer retries.
const lockPoll = 3 * time.Millisecond

// writeLock is a held vault lock.
type writeLock struct {
	fl *flock.Flock
}

// acquire takes the vault's write lock, waiting up to the vault's lock
// timeout. The lock is an flock(2) on a file, so the kernel releases it when
// the holder dies: a crashed writer never leaves a stale lock behind.
func (v *Vault) acquire(ctx context.Context) (*writeLock, error) {
	timeout := v.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	return v.acquireWithin(ctx, timeout)
}

func (v *Vault) acquireWithin(ctx context.Context, timeout time.Duration) (*writeLock, error) {
	path := filepath.Join(v.GitDir, lockFile)
	fl := flock.New(path)
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok, err := fl.TryLockContext(waitCtx, lockPoll)
	if ok {
		// Who holds the lock is diagnostics only; the flock is the lock.
		holder := fmt.Sprintf("pid %d since %s: %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339), strings.Join(os.Args, " "))
		_ = os.WriteFile(holderFile(path), []byte(holder), 0o644)
		return &writeLock{fl: fl}, nil
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	holder, _ := os.ReadFile(holderFile(path))
	msg := strings.TrimSpace(string(holder))
	if msg == "" {
		msg = "another process"
	}
	return nil, fmt.Errorf("%w: waited %s for %s (held by %s)", ErrLocked, timeout, path, msg)
}

func (l *writeLock) release() {
	_ = l.fl.Unlock()
}

// LockHolder reports who holds the write lock now, or "" when it is free.
func (v *Vault) LockHolder() string {
	path := filepath.Join(v.GitDir, lockFile)
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil {
		return ""
	}
	if ok {
		_ = fl.Unlock()
		return ""
	}
	b, _ := os.ReadFile(holderFile(path))
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return "another process"
}
