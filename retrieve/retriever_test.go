package retrieve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

// A damaged cache in the second vault is rebuilt in the middle of a search
// over both: the search must use the fresh view, not the closed one.
func TestSearchRebuildsADamagedCacheOfAnyVault(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "decisions/queue", kind: schema.KindDecision, title: "Use NATS for the job queue", body: "Jobs go through NATS."},
		mem{path: "preferences/queues", kind: schema.KindPreference, title: "Job queue style", body: "Small job queue consumers.", scope: schema.ScopeUser},
	)
	r := f.retriever()
	if _, err := r.Search(ctx, retrieve.Request{Query: "job queue"}); err != nil {
		t.Fatal(err)
	}
	user := r.Indexes()[1]
	cur, err := os.ReadFile(filepath.Join(user.Dir(), "current"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user.Dir(), strings.TrimSpace(string(cur)), "vectors.f32"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := f.retriever().Search(ctx, retrieve.Request{Query: "job queue"})
	if err != nil || len(res.Items) != 2 {
		t.Fatalf("search over a damaged cache: %v, %v", err, res)
	}
}
