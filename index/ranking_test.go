package index

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// rankVault is a vault of hand-written memories and its index, for the
// ranking internals.
type rankVault struct {
	t  *testing.T
	v  *vault.Vault
	ix *Index
}

// note is a memory: path under events/, title, body, and optionally the
// agent session it came from and its creation time.
type note struct {
	path, title, body, session string
	at                         time.Time
}

func newRankVault(t *testing.T, notes ...note) *rankVault {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	_, err = v.Update(ctx, vault.CommitMeta{Verb: "remember", Subject: "test memories"}, func(tx *vault.Tx) error {
		for i, n := range notes {
			at := n.at
			if at.IsZero() {
				at = base.Add(time.Duration(i) * time.Minute)
			}
			m := schema.New(schema.KindEvent, n.title, at)
			m.Body = n.body
			m.URI = schema.URI{Scope: schema.ScopeProject, Path: "events/" + n.path}
			if n.session != "" {
				m.Source = &schema.Source{Session: n.session}
			}
			if err := tx.Put(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &rankVault{t: t, v: v, ix: ix}
}

// rank runs the full-text ranking and returns the hits by path.
func (rv *rankVault) rank(query string) []bm25Hit {
	rv.t.Helper()
	var hits []bm25Hit
	err := rv.ix.view(context.Background(), func(s *snapshot) error {
		var err error
		hits, err = rv.ix.bm25(context.Background(), s, query, 50, Query{})
		return err
	})
	if err != nil {
		rv.t.Fatal(err)
	}
	for i := range hits {
		hits[i].id = strings.TrimPrefix(hits[i].id, "events/")
	}
	return hits
}

// scorer runs fn with a scorer on the current snapshot.
func (rv *rankVault) scorer(fn func(*bm25Scorer, *snapshot)) {
	rv.t.Helper()
	ctx := context.Background()
	err := rv.ix.view(ctx, func(s *snapshot) error {
		bi, err := s.index()
		if err != nil {
			return err
		}
		adv, err := bi.Advanced()
		if err != nil {
			return err
		}
		r, err := adv.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		fn(newScorer(ctx, r, s), s)
		return nil
	})
	if err != nil {
		rv.t.Fatal(err)
	}
}

func ids(hits []bm25Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.id)
	}
	return out
}

// BM25F computed by hand: one IDF per word, each field's frequency
// weighted and normalized by the field's length against its mean, then
// saturated once.
func TestBM25FScoreByHand(t *testing.T) {
	rv := newRankVault(t,
		note{path: "a", title: "Alpha report", body: "gamma delta gamma"},
		note{path: "b", title: "Epsilon report", body: "zeta kite"},
		note{path: "c", title: "Theta report", body: "iota kappa lambda mu"},
	)
	idf := func(df float64) float64 { return math.Log(1 + (3-df+0.5)/(df+0.5)) }
	sat := func(tilde float64) float64 { return tilde * (bm25K1 + 1) / (tilde + bm25K1) }
	// Bleve keeps a field's length as a float32 norm.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

	// Body: tf 2, length 3, mean length 3, b 0.75, weight 1.
	hits := rv.rank("gamma")
	if len(hits) != 1 || hits[0].id != "a" || !near(hits[0].score, idf(1)*sat(2.0)) {
		t.Fatalf("body match: %+v, want a at %v", hits, idf(1)*sat(2.0))
	}
	// Title: tf 1, length 2, mean 2, b 0.5, weight 2.5.
	hits = rv.rank("alpha")
	if len(hits) != 1 || !near(hits[0].score, idf(1)*sat(2.5)) {
		t.Fatalf("title match: %+v, want %v", hits, idf(1)*sat(2.5))
	}
	// A word in every title: low IDF, and the shorter body does not
	// matter, the title fields are the same length.
	hits = rv.rank("report")
	if len(hits) != 3 || !near(hits[0].score, idf(3)*sat(2.5)) || hits[0].score != hits[2].score {
		t.Fatalf("common word: %+v", hits)
	}
	// Two words add up; a longer body normalizes harder.
	hits = rv.rank("gamma kappa")
	wantA, wantC := idf(1)*sat(2.0), idf(1)*sat(1/(1-0.75+0.75*4.0/3))
	if len(hits) != 2 || hits[0].id != "a" || !near(hits[0].score, wantA) || !near(hits[1].score, wantC) {
		t.Fatalf("two words: %+v, want a %v, c %v", hits, wantA, wantC)
	}
}

func TestTypoCorrection(t *testing.T) {
	rv := newRankVault(t,
		note{path: "k8s", title: "Cluster", body: "The kubernetes cluster runs three nodes."},
		note{path: "biz", title: "Plan", body: "The business plan is due Friday; business is good."},
		note{path: "bus", title: "Commute", body: "The bus was late."},
		note{path: "food", title: "Lunch", body: "We ordered pizza."},
		note{path: "lamps", title: "Lights", body: "A lamp, a lamp and another lamp."},
		note{path: "lamp2", title: "Desk", body: "The desk lamp broke."},
		note{path: "lame", title: "Excuse", body: "A lame excuse."},
	)
	cases := []struct {
		query string
		want  []string
	}{
		{"pizzq", []string{"food"}},                 // one edit
		{"kubernetez", []string{"k8s"}},             // two edits, allowed from seven letters
		{"buisiness", []string{"biz"}},              // the README's example
		{"bux", nil},                                // too short to correct
		{"zzzzzzzzzz", nil},                         // nothing near
		{"kubernetes plan", []string{"k8s", "biz"}}, // correct words are left alone
	}
	for _, c := range cases {
		got := ids(rv.rank(c.query))
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", c.query, got, want)
		}
	}
	// Among words as near, the one in more memories wins.
	rv.scorer(func(sc *bm25Scorer, _ *snapshot) {
		terms, err := sc.correct([]queryTerm{{term: "lamq", weight: 1}})
		if err != nil || terms[0].term != "lamp" {
			t.Errorf("correction of lamq: %v %v", terms, err)
		}
	})
}

// longBody is a paragraph of forty-odd content words around a topic, so
// feedback has enough text to read.
func longBody(topic string, i int) string {
	return fmt.Sprintf("Notes on %s number %d. The team reviewed the %s plan in detail, compared alternatives, measured "+
		"latency and throughput, wrote down risks, owners and deadlines, checked the budget, interviewed users, "+
		"collected feedback from support, drafted a rollout schedule, agreed on monitoring dashboards and alerts, "+
		"and scheduled a retrospective once the %s work ships to production. Afterwards everyone summarized lessons, "+
		"updated documentation, archived tickets, thanked volunteers, celebrated milestones, booked travel, renewed "+
		"licenses, rotated credentials, cleaned repositories, trained newcomers and planned next quarter carefully.", topic, i, topic, topic)
}

func TestFeedbackReadsTextNotFrontmatter(t *testing.T) {
	var notes []note
	for i := range 6 {
		// The photography memories share "aperture" and "tripod", words the
		// query does not use.
		notes = append(notes, note{path: fmt.Sprintf("photo%d", i), title: "Photography session",
			body: longBody("photography", i) + " Bring the tripod and set the aperture wide."})
	}
	for i := range 14 {
		notes = append(notes, note{path: fmt.Sprintf("other%d", i), title: "Gardening", body: longBody("gardening", i)})
	}
	// One memory says "kind" and "source" in its text: the frontmatter
	// keys of every file must not make it look related.
	notes = append(notes, note{path: "kind", title: "Unrelated", body: "What kind of source is this? A kind source, a good source."})
	rv := newRankVault(t, notes...)
	rv.scorer(func(sc *bm25Scorer, s *snapshot) {
		top := []bm25Hit{}
		for i := range 5 {
			top = append(top, bm25Hit{id: fmt.Sprintf("events/photo%d", i), score: 1})
		}
		exp, _, err := rv.ix.feedback(sc, top, analyzeQuery("photography session"))
		if err != nil {
			t.Fatal(err)
		}
		var words []string
		for _, e := range exp {
			words = append(words, e.term)
		}
		for _, bad := range []string{"kind", "sourc", "session", "titl", "creat", "event", "activ", "statu"} {
			if slices.Contains(words, bad) {
				t.Errorf("feedback took the frontmatter word %q: %v", bad, words)
			}
		}
		if !slices.Contains(words, "tripod") || !slices.Contains(words, "apertur") {
			t.Errorf("feedback missed the shared words: %v", words)
		}
	})
	if hits := rv.rank("photography"); len(hits) > 0 && slices.Contains(ids(hits[:min(3, len(hits))]), "kind") {
		t.Errorf("the memory saying kind and source ranks for photography: %v", ids(hits))
	}
}

func TestFeedbackNeedsLongMemories(t *testing.T) {
	var notes []note
	for i := range 10 {
		notes = append(notes, note{path: fmt.Sprintf("turn%d", i), title: "Chat", body: fmt.Sprintf("Maya: the tripod %d is in the studio.", i)})
		notes = append(notes, note{path: fmt.Sprintf("other%d", i), title: "Chat", body: fmt.Sprintf("Theo: lunch %d was late.", i)})
	}
	rv := newRankVault(t, notes...)
	rv.scorer(func(sc *bm25Scorer, _ *snapshot) {
		var top []bm25Hit
		for i := range 5 {
			top = append(top, bm25Hit{id: fmt.Sprintf("events/turn%d", i), score: 1})
		}
		exp, long, err := rv.ix.feedback(sc, top, analyzeQuery("tripod"))
		if err != nil || len(exp) != 0 || long {
			t.Fatalf("feedback from turn-sized memories: %v %v", exp, err)
		}
	})
}

func TestAssociationsFromTheVault(t *testing.T) {
	notes := []note{
		{path: "db1", title: "Storage", body: "The database is Postgres 15 with a read replica."},
		{path: "db2", title: "Tests", body: "Tests use a real Postgres database in a container."},
		{path: "db3", title: "Backups", body: "Database backups are Postgres dumps every night."},
		{path: "pg", title: "Upgrade", body: "We upgraded Postgres last week without downtime."},
	}
	for i := range 96 {
		notes = append(notes, note{path: fmt.Sprintf("misc%d", i), title: "Misc", body: fmt.Sprintf("Lunch order %d was pizza and salad.", i)})
	}
	rv := newRankVault(t, notes...)
	rv.scorer(func(sc *bm25Scorer, _ *snapshot) {
		assoc, err := sc.associations(analyzeQuery("database"))
		if err != nil {
			t.Fatal(err)
		}
		if len(assoc) == 0 || assoc[0].term != "postgr" {
			t.Fatalf("database should associate with postgres first: %v", assoc)
		}
		var sum float64
		for _, a := range assoc {
			sum += a.weight
		}
		if math.Abs(sum-assocWeight) > 1e-9 {
			t.Fatalf("associations weigh %v of a one-word query, want %v", sum, assocWeight)
		}
	})
	// The memory that never says "database" is found through Postgres.
	hits := rv.rank("database")
	if got := ids(hits); len(got) != 4 || got[3] != "pg" || hits[3].score <= 0 {
		t.Fatalf("database: %+v", hits)
	}
}

func TestSessionContext(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	notes := []note{
		// A question and its answer: the answer never says "holiday".
		{path: "s1-q", title: "Chat", body: "Where did you go on holiday?", session: "s1", at: at},
		{path: "s1-a", title: "Chat", body: "We went to Lisbon and ate pastries.", session: "s1", at: at.Add(time.Minute)},
		// The same words about pastries, in another session.
		{path: "s2-a", title: "Chat", body: "We went to Porto and ate pastries, such pastries.", session: "s2", at: at},
		{path: "s2-b", title: "Chat", body: "The train was slow.", session: "s2", at: at.Add(time.Minute)},
	}
	for i := range 8 {
		notes = append(notes, note{path: fmt.Sprintf("x%d", i), title: "Chat", body: fmt.Sprintf("Meeting %d moved to Thursday.", i)})
	}
	rv := newRankVault(t, notes...)
	got := ids(rv.rank("holiday pastries"))
	if len(got) < 3 || got[0] != "s1-q" || got[1] != "s1-a" || got[2] != "s2-a" {
		t.Fatalf("the answer should rank by its question: %v", got)
	}
	rv.scorer(func(_ *bm25Scorer, s *snapshot) {
		nb := s.m.neighbours()
		q, _ := s.m.indexOf("events/s1-q.md")
		a, _ := s.m.indexOf("events/s1-a.md")
		x, _ := s.m.indexOf("events/x0.md")
		if nb.next[q] != int32(a) || nb.prev[a] != int32(q) || nb.prev[q] != -1 || nb.group[x] != -1 {
			t.Fatalf("neighbours: %+v", nb)
		}
	})
}

func TestCoverage(t *testing.T) {
	var notes []note
	notes = append(notes, note{path: "both", title: "Port", body: "The server port test is flaky."})
	notes = append(notes, note{path: "one", title: "Server", body: "The server restarts nightly."})
	for i := range 8 {
		notes = append(notes, note{path: fmt.Sprintf("n%d", i), title: "Note", body: fmt.Sprintf("The server log %d rotated.", i)})
	}
	rv := newRankVault(t, notes...)
	cov := map[string]float64{}
	for _, h := range rv.rank("flaky port test server") {
		cov[h.id] = h.coverage
	}
	if cov["both"] != 1 || cov["one"] <= 0 || cov["one"] >= 0.2 {
		t.Fatalf("coverage: %v", cov)
	}
	// A word no memory contains still counts in what the query asks.
	cov = map[string]float64{}
	for _, h := range rv.rank("flaky port test server haiku") {
		cov[h.id] = h.coverage
	}
	if cov["both"] >= 0.8 || cov["both"] <= 0.3 {
		t.Fatalf("coverage with an unknown word: %v", cov)
	}
}
