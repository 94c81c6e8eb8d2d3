package vault

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// refBeingWritten reports an error from reading a ref another process is
// writing. go-git updates a ref file in place (lock, truncate, write), so
// a push or fetch on a remote in a shared folder can read it empty while
// a teammate's push lands; a moment later it holds their commit. The
// local transport passes the error on as text, hence the string test.
func refBeingWritten(err error) bool {
	return err != nil && (errors.Is(err, dotgit.ErrEmptyRefFile) || strings.Contains(err.Error(), dotgit.ErrEmptyRefFile.Error()))
}

// pause waits a little longer each round, with jitter so that two
// pushers that met once do not meet again.
func pause(ctx context.Context, round int) error {
	d := time.Duration(round)*10*time.Millisecond + rand.N(10*time.Millisecond)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
