package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Options configures a run.
type Options struct {
	Name     string           // dataset name for the report
	Mode     index.Mode       // text, vector or hybrid
	Index    *config.Index    // embedder settings; nil means the defaults (lexical)
	Retrieve *config.Retrieve // ranking settings; nil means the defaults
	Workers  int              // cases run at once; default the number of CPUs
	Depth    int              // ranks evaluated per query; default 50
	Dir      string           // where case vaults go; default a temp dir
	Progress func(done, total int)
	Details  bool // keep per-query results in the report
}

// Report is a run's outcome.
type Report struct {
	Dataset      string            `json:"dataset"`
	Mode         index.Mode        `json:"mode"`
	Embedder     string            `json:"embedder"`
	Cases        int               `json:"cases"`
	Queries      int               `json:"queries"`
	Skipped      int               `json:"skipped"` // queries without relevant ids
	Memories     int               `json:"memories"`
	Overall      Scores            `json:"overall"`
	ByCategory   map[string]Scores `json:"by_category"`
	IngestPerSec float64           `json:"ingest_memories_per_sec"`
	IndexPerSec  float64           `json:"index_memories_per_sec"`
	QueryP50Ms   float64           `json:"query_p50_ms"`
	QueryP95Ms   float64           `json:"query_p95_ms"`
	Seconds      float64           `json:"seconds"`
	PerQuery     []QueryResult     `json:"per_query,omitempty"`
}

// QueryResult is one query's outcome.
type QueryResult struct {
	Case     string   `json:"case"`
	Query    string   `json:"query"`
	Category string   `json:"category"`
	Text     string   `json:"text"`
	Relevant []string `json:"relevant"`
	Ranked   []string `json:"ranked"` // top 10
	Scores   Scores   `json:"scores"`
}

type caseResult struct {
	queries       []QueryResult
	skipped       int
	memories      int
	ingest, index time.Duration
	latencies     []float64
	embedder      string
	err           error
}

// Run evaluates every case and aggregates the metrics.
func Run(ctx context.Context, cases []Case, o Options) (*Report, error) {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Depth <= 0 {
		o.Depth = 50
	}
	if o.Mode == "" {
		o.Mode = index.ModeHybrid
	}
	root := o.Dir
	if root == "" {
		d, err := os.MkdirTemp("", "cairn-retrieval-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		root = d
	}
	start := time.Now()
	results := runCases(ctx, root, cases, o)
	rep := &Report{Dataset: o.Name, Mode: o.Mode, Cases: len(cases), ByCategory: map[string]Scores{}}
	var all []Scores
	byCat := map[string][]Scores{}
	var lat []float64
	var ingest, idx time.Duration
	for i, r := range results {
		if r.err != nil {
			return nil, fmt.Errorf("case %s: %w", cases[i].ID, r.err)
		}
		rep.Embedder = r.embedder
		rep.Skipped += r.skipped
		rep.Memories += r.memories
		ingest += r.ingest
		idx += r.index
		lat = append(lat, r.latencies...)
		for _, q := range r.queries {
			all = append(all, q.Scores)
			byCat[q.Category] = append(byCat[q.Category], q.Scores)
			if o.Details {
				rep.PerQuery = append(rep.PerQuery, q)
			}
		}
	}
	rep.Queries = len(all)
	rep.Overall = mean(all)
	for c, ss := range byCat {
		rep.ByCategory[c] = mean(ss)
	}
	if ingest > 0 {
		rep.IngestPerSec = float64(rep.Memories) / ingest.Seconds()
	}
	if idx > 0 {
		rep.IndexPerSec = float64(rep.Memories) / idx.Seconds()
	}
	rep.QueryP50Ms = percentile(lat, 0.5)
	rep.QueryP95Ms = percentile(lat, 0.95)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// runCases runs the cases on o.Workers workers, each case in its own
// directory under root, reporting progress as cases finish.
func runCases(ctx context.Context, root string, cases []Case, o Options) []caseResult {
	results := make([]caseResult, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = runCase(ctx, filepath.Join(root, fmt.Sprintf("case-%05d", i)), cases[i], o)
				mu.Lock()
				done++
				if o.Progress != nil {
					o.Progress(done, len(cases))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runCase builds one vault through the normal write path, indexes it, and
// ranks its queries with the retrieval every surface uses.
func runCase(ctx context.Context, dir string, c Case, o Options) (res caseResult) {
	defer os.RemoveAll(dir)
	start := time.Now()
	v, ids, err := ingest(ctx, dir, c, o)
	if err != nil {
		return caseResult{err: err}
	}
	res.ingest = time.Since(start)
	res.memories = len(c.Corpus)
	ix, err := index.Open(v, index.Options{})
	if err != nil {
		return caseResult{err: err}
	}
	start = time.Now()
	if err := ix.Sync(ctx); err != nil {
		return caseResult{err: err}
	}
	res.index = time.Since(start)
	if e := ix.Embedder(); e != nil {
		res.embedder = e.Info().Name
	}
	if err := rank(ctx, ix, ids, c, o, &res); err != nil {
		return caseResult{err: err}
	}
	return res
}

// ingest remembers a case's corpus in a new vault at dir, one memory per
// entry, and returns the vault with the corpus id of each memory path.
func ingest(ctx context.Context, dir string, c Case, o Options) (*vault.Vault, map[string]string, error) {
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		return nil, nil, err
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		return nil, nil, err
	}
	if o.Index != nil {
		v.Config.Index = *o.Index
	}
	if o.Retrieve != nil {
		v.Config.Retrieve = *o.Retrieve
	}
	ids := map[string]string{}      // memory path → corpus id
	sessions := map[string]string{} // dataset session → anonymous id
	_, err = v.Update(ctx, vault.CommitMeta{Verb: "remember", Subject: "bench: ingest " + c.ID, Source: "bench"}, func(tx *vault.Tx) error {
		for i, d := range c.Corpus {
			t, err := ParseDate(d.Time)
			if err != nil {
				return fmt.Errorf("corpus %s: %w", d.ID, err)
			}
			if t.IsZero() {
				t = time.Now()
			}
			// The title carries no words of its own, so ranking rests on
			// the text; ids never reach the index (they could leak gold).
			m := schema.New(schema.KindEvent, fmt.Sprintf("Conversation %d", i+1), t)
			m.Body = d.Text
			if d.Session != "" {
				// A conversation's turns share a session, as captured
				// memories do. Session ids are renamed: a dataset's own
				// (LongMemEval's "answer_…") could leak gold.
				if sessions[d.Session] == "" {
					sessions[d.Session] = fmt.Sprintf("s%05d", len(sessions)+1)
				}
				m.Source = &schema.Source{Agent: "bench", Session: sessions[d.Session]}
			}
			m.URI = schema.URI{Scope: schema.ScopeProject, Path: fmt.Sprintf("events/c%05d", i+1)}
			ids[m.URI.Path] = d.ID
			if err := tx.Put(m); err != nil {
				return fmt.Errorf("corpus %s: %w", d.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return v, ids, nil
}

// rank runs a case's queries through retrieve.Search, clock set to each
// query's time, and scores the rankings.
func rank(ctx context.Context, ix *index.Index, ids map[string]string, c Case, o Options, res *caseResult) error {
	r := retrieve.New([]*index.Index{ix})
	for _, q := range c.Queries {
		if len(q.Relevant) == 0 {
			res.skipped++
			continue
		}
		now, err := ParseDate(q.Time)
		if err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
		if now.IsZero() {
			now = time.Now()
		}
		r.Now = func() time.Time { return now }
		qs := time.Now()
		out, err := r.Search(ctx, retrieve.Request{Query: q.Text, Limit: o.Depth, Mode: o.Mode})
		if err != nil {
			return fmt.Errorf("query %s: %w", q.ID, err)
		}
		res.latencies = append(res.latencies, float64(time.Since(qs).Microseconds())/1000)
		ranked := make([]string, 0, len(out.Items))
		for _, it := range out.Items {
			ranked = append(ranked, ids[it.URI.Path])
		}
		qr := QueryResult{Case: c.ID, Query: q.ID, Category: q.Category, Text: q.Text, Relevant: q.Relevant, Scores: score(ranked, q.Relevant)}
		qr.Ranked = ranked[:min(10, len(ranked))]
		res.queries = append(res.queries, qr)
	}
	return nil
}

// Categories lists a report's categories in order.
func (r *Report) Categories() []string {
	var cs []string
	for c := range r.ByCategory {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	return cs
}
