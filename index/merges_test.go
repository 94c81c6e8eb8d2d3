package index_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// An update of one memory adds a small segment; it must not merge the
// segments of the last rebuild into a new one, a cost that grows with
// the vault and that every short-lived writer would pay.
func TestUpdateKeepsRebuiltSegments(t *testing.T) {
	f := newFixture(t)
	for i := range 60 {
		f.remember(schema.KindEvent, fmt.Sprintf("Rebuilt event %d", i), fmt.Sprintf("The cache of service %d was warmed before the deploy.", i))
	}
	if err := f.ix.Rebuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	before := zapFiles(t, f.v.Root)
	if len(before) == 0 {
		t.Fatal("no segment files after a rebuild")
	}
	for i := range 12 {
		f.remember(schema.KindEvent, fmt.Sprintf("Added event %d", i), "One more note about the cache.")
		if err := f.ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	after := zapFiles(t, f.v.Root)
	for _, z := range before {
		if !slices.Contains(after, z) {
			t.Errorf("segment %s of the rebuild was merged away by updates of one memory (now %v)", z, after)
		}
	}
	if got := f.search(index.Query{Text: "added event", Limit: 20}); !slices.Contains(got, "events/added-event-11") {
		t.Errorf("the last added memory is not found: %v", got)
	}
}

func zapFiles(t *testing.T, root string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, ".cache", "gen-*", "bleve", "store", "*.zap"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// However many short-lived writers update the cache, the segments a
// search visits stay few: the merges the policy calls for are done before
// the index closes, not left to a background merger that Close cuts short.
func TestUpdatesKeepSegmentsFew(t *testing.T) {
	f := newFixture(t)
	for i := range 30 {
		f.remember(schema.KindEvent, fmt.Sprintf("Rebuilt event %d", i), "The cache of the service was warmed before the deploy.")
	}
	if err := f.ix.Rebuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		f.remember(schema.KindEvent, fmt.Sprintf("Added event %d", i), "One more note about the cache.")
		ix := f.open(index.Options{}) // a fresh process's index
		if err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if z := zapFiles(t, f.v.Root); len(z) > 12 {
		t.Errorf("40 updates left %d segment files: %v", len(z), z)
	}
	if got := f.search(index.Query{Text: "added event", Limit: 50}); !slices.Contains(got, "events/added-event-39") || !slices.Contains(got, "events/added-event-0") {
		t.Errorf("added memories missing from %v", got)
	}
}
