package retrieve_test

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

func TestSupersededIsReplacedBySuccessor(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "decisions/use-sqlite", kind: schema.KindDecision, title: "Use SQLite FTS for search", body: "SQLite FTS5 indexes memories for search.", age: 30,
			status: schema.StatusSuperseded, supersededBy: "mem://project/decisions/use-bleve"},
		mem{path: "decisions/use-bleve", kind: schema.KindDecision, title: "Use bleve", body: "Bleve is pure Go.", age: 5},
	)
	items := f.search(retrieve.Request{Query: "sqlite fts search"})
	if len(items) == 0 || items[0].URI.Path != "decisions/use-bleve" || !strings.Contains(items[0].Note, "replaces mem://project/decisions/use-sqlite") {
		t.Fatalf("want the successor with a note, got %v %+v", paths(items), items)
	}
	for _, it := range items {
		if it.Status == schema.StatusSuperseded {
			t.Fatalf("superseded memory returned as current: %v", paths(items))
		}
	}
	// Asking for superseded memories explicitly returns them.
	old := f.search(retrieve.Request{Query: "sqlite", Statuses: []schema.Status{schema.StatusSuperseded}})
	if len(old) != 1 || old[0].URI.Path != "decisions/use-sqlite" {
		t.Fatalf("explicit status filter: %v", paths(old))
	}
}

func TestNearDuplicatesCollapseToMostRecent(t *testing.T) {
	f := newFixture(t)
	body := "The integration tests fail when two of them share a temporary directory; use t.TempDir in every test."
	f.add(
		mem{path: "cases/flaky-a", kind: schema.KindCase, title: "Flaky integration tests", body: body, age: 20},
		mem{path: "cases/flaky-b", kind: schema.KindCase, title: "Flaky integration tests", body: body + " Seen again.", age: 2},
		mem{path: "cases/other", kind: schema.KindCase, title: "Integration tests time out", body: "The integration tests time out on slow CI runners.", age: 10},
	)
	items := f.search(retrieve.Request{Query: "integration tests temporary directory"})
	got := paths(items)
	if len(got) != 2 || got[0] != "cases/flaky-b" || !strings.Contains(items[0].Note, "near-duplicate") {
		t.Fatalf("want the recent duplicate first and the other one, got %v (%q)", got, items[0].Note)
	}
}

func TestDecayOrderingAndExemptKinds(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "events/deploy-old", kind: schema.KindEvent, title: "Deployed the billing service", body: "Billing deploy to production went out on Tuesday after the freeze.", age: 120},
		mem{path: "events/deploy-new", kind: schema.KindEvent, title: "Shipped billing to production", body: "Another billing deploy reached production without a rollback.", age: 1},
		mem{path: "constraints/billing", kind: schema.KindConstraint, title: "Billing deploys need a second reviewer", body: "Every billing deploy to production needs a second reviewer.", age: 400},
	)
	items := f.search(retrieve.Request{Query: "billing deploy production"})
	got := paths(items)
	pos := map[string]int{}
	for i, p := range got {
		pos[p] = i
	}
	if pos["events/deploy-new"] > pos["events/deploy-old"] {
		t.Fatalf("older event ranked above the recent one: %v", got)
	}
	// A year-old constraint does not decay: it keeps its place.
	if pos["constraints/billing"] > pos["events/deploy-old"] {
		t.Fatalf("decay-exempt constraint ranked below a decayed event: %v", got)
	}
	for _, p := range items[0].Parts {
		if p.Name == "recency" && (p.Value <= 0 || p.Value > 1) {
			t.Fatalf("recency out of range: %+v", p)
		}
	}
}

func TestTimeWindowPrefersMemoriesFromThen(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "events/outage-june", kind: schema.KindEvent, title: "Database outage", body: "The database was down for an hour.", age: 160},
		mem{path: "events/outage-lastweek", kind: schema.KindEvent, title: "Database outage", body: "The database was down for ten minutes.", age: 9},
		mem{path: "events/outage-yesterday", kind: schema.KindEvent, title: "Database outage", body: "The database was down briefly.", age: 1},
	)
	res, err := f.retriever().Search(ctx, retrieve.Request{Query: "what happened to the database last week"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Window == nil || res.Items[0].URI.Path != "events/outage-lastweek" {
		t.Fatalf("window %+v, order %v", res.Window, paths(res.Items))
	}
	items := f.search(retrieve.Request{Query: "the database outage in June"})
	if items[0].URI.Path != "events/outage-june" {
		t.Fatalf("in June: %v", paths(items))
	}
}

func TestTagPenaltiesAndSafeMode(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "patterns/retry-forever", kind: schema.KindPattern, title: "Retry network calls forever", body: "Retry failed network calls in a loop.", tags: []string{"known-bad"}},
		mem{path: "patterns/retry-backoff", kind: schema.KindPattern, title: "Retry network calls with backoff", body: "Retry failed network calls with exponential backoff and a limit."},
	)
	items := f.search(retrieve.Request{Query: "retry network calls forever loop"})
	if paths(items)[0] != "patterns/retry-backoff" {
		t.Fatalf("known-bad memory not penalized: %v", paths(items))
	}
	safe := f.search(retrieve.Request{Query: "retry network calls forever loop", Safe: true})
	if len(safe) != 1 || safe[0].URI.Path != "patterns/retry-backoff" {
		t.Fatalf("--safe kept a known-bad memory: %v", paths(safe))
	}
}

func TestNoveltyAndLinks(t *testing.T) {
	f := newFixture(t)
	f.add(
		mem{path: "decisions/queue", kind: schema.KindDecision, title: "Use NATS for the job queue", body: "Jobs go through NATS.", links: []string{"mem://project/cases/nats-reconnect"}},
		mem{path: "cases/nats-reconnect", kind: schema.KindCase, title: "Client stops after a broker restart", body: "Set MaxReconnects to -1."},
		mem{path: "decisions/queue-retention", kind: schema.KindDecision, title: "Job queue keeps messages a week", body: "Retention of the job queue is seven days."},
	)
	r := f.retriever()
	res, err := r.Search(ctx, retrieve.Request{Query: "job queue NATS"})
	if err != nil {
		t.Fatal(err)
	}
	got := paths(res.Items)
	found := false
	for _, it := range res.Items {
		if it.URI.Path == "cases/nats-reconnect" && strings.Contains(it.Note, "linked with mem://project/decisions/queue") {
			found = true
		}
	}
	if !found {
		t.Fatalf("linked memory did not ride along: %v", got)
	}
	// Once a session saw the top hit, it ranks lower for that session.
	if _, err := r.Search(ctx, retrieve.Request{Query: "job queue NATS", Session: "s1", Record: "prompt", Limit: 1}); err != nil {
		t.Fatal(err)
	}
	again, _ := r.Search(ctx, retrieve.Request{Query: "job queue NATS", Session: "s1"})
	other, _ := r.Search(ctx, retrieve.Request{Query: "job queue NATS", Session: "s2"})
	top := res.Items[0].URI
	find := func(items []retrieve.Item) retrieve.Item {
		for _, it := range items {
			if it.URI == top {
				return it
			}
		}
		t.Fatalf("%s missing", top)
		return retrieve.Item{}
	}
	seen, fresh := find(again.Items), find(other.Items)
	novelty := f.retriever().Config().Weights.Novelty
	if seen.Score != fresh.Score*novelty {
		t.Fatalf("shown memory scored %v for the session that saw it, %v for another: want a factor %v", seen.Score, fresh.Score, novelty)
	}
	for _, p := range fresh.Parts {
		if p.Name == "already shown" {
			t.Fatal("another session was affected")
		}
	}
}

func TestTiesBreakDeterministically(t *testing.T) {
	f := newFixture(t)
	var ms []mem
	for _, n := range []string{"c", "a", "d", "b"} {
		ms = append(ms, mem{path: "events/same-" + n, kind: schema.KindEvent, title: "Identical words here " + n, body: "identical body text", age: 3})
	}
	f.add(ms...)
	first := paths(f.search(retrieve.Request{Query: "identical body", Mode: index.ModeText}))
	for i := 0; i < 5; i++ {
		if again := paths(f.search(retrieve.Request{Query: "identical body", Mode: index.ModeText})); strings.Join(again, ",") != strings.Join(first, ",") {
			t.Fatalf("order changed: %v then %v", first, again)
		}
	}
}
