package retrieve_test

import (
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

// Both vaults' lists are ranked together, with signals ranked across them.
func TestOneRankingAcrossVaults(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "decisions/queue", kind: schema.KindDecision, title: "Use NATS for the job queue", body: "Jobs go through NATS."},
		mem{path: "preferences/queues", kind: schema.KindPreference, title: "Job queue style", body: "I like small job queue consumers, one per job queue topic.", scope: schema.ScopeUser},
		mem{path: "decisions/db", kind: schema.KindDecision, title: "Use Postgres", body: "The database is Postgres."},
	)
	res, err := f.retriever().Search(ctx, retrieve.Request{Query: "job queue", Mode: index.ModeText})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 2 || res.Mode != index.ModeText {
		t.Fatalf("items %v mode %s", paths(res.Items), res.Mode)
	}
	ranks := map[int]bool{}
	for _, it := range res.Items {
		if len(it.Signals) != 1 || it.Signals[0].Name != index.SignalText || it.Signals[0].Contribution <= 0 {
			t.Fatalf("signals of %s: %+v", it.URI, it.Signals)
		}
		ranks[it.Signals[0].Rank] = true
	}
	if !ranks[1] || !ranks[2] {
		t.Fatalf("text ranks are not across vaults: %+v", res.Items)
	}
}
