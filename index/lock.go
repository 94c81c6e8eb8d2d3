package index

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// lockPoll is how often a waiting process retries a cache lock. bbolt's own
// lock polls every 50 ms; taking ours first, at 1 ms, keeps waits short.
const lockPoll = time.Millisecond

type fileLock struct{ fl *flock.Flock }

func lockFile(ctx context.Context, path string, shared bool, timeout time.Duration) (*fileLock, error) {
	fl := flock.New(path)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var ok bool
	var err error
	if shared {
		ok, err = fl.TryRLockContext(ctx, lockPoll)
	} else {
		ok, err = fl.TryLockContext(ctx, lockPoll)
	}
	if ok {
		return &fileLock{fl: fl}, nil
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return nil, fmt.Errorf("%w: waited %s for %s", ErrLocked, timeout, path)
}

// tryLock takes an exclusive lock only if it is free right now.
func tryLock(path string) (*fileLock, bool) {
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil || !ok {
		return nil, false
	}
	return &fileLock{fl: fl}, true
}

func (l *fileLock) unlock() {
	if l != nil {
		_ = l.fl.Unlock()
	}
}
