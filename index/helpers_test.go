package index_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
)

// search ranks with the model every surface runs: index finds candidates
// and signals, retrieve ranks them.
func search(ctx context.Context, ixs []*index.Index, q index.Query) (*retrieve.Result, error) {
	return retrieve.New(ixs).Search(ctx, retrieve.Request{Query: q.Text, Kinds: q.Kinds, Tags: q.Tags, Statuses: q.Statuses,
		Since: q.Since, Until: q.Until, Limit: q.Limit, Mode: q.Mode})
}

func gitReset(t *testing.T, dir, rev string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "reset", "-q", "--hard", rev).CombinedOutput()
	if err != nil {
		t.Fatalf("git reset: %v\n%s", err, out)
	}
}
