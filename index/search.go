package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/cairnmem/cairn/schema"
)

// Mode selects the ranking signals of a search.
type Mode string

// Modes.
const (
	ModeText   Mode = "text"   // BM25 over title, summary, tags, triggers, body
	ModeVector Mode = "vector" // cosine similarity of embeddings
	ModeHybrid Mode = "hybrid" // both, fused by reciprocal rank
)

// ParseMode accepts text, vector or hybrid.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(s)); m {
	case ModeText, ModeVector, ModeHybrid:
		return m, nil
	case "":
		return ModeHybrid, nil
	}
	return "", fmt.Errorf("unknown search mode %q (text, vector, hybrid)", s)
}

// Query is a search.
type Query struct {
	Text     string
	Kinds    []schema.Kind
	Tags     []string
	Statuses []schema.Status
	Since    time.Time // updated at or after
	Until    time.Time // updated at or before
	Limit    int       // hits to return; default 10
	Depth    int       // candidates taken from each signal; default max(50, 3×Limit)
	Mode     Mode
}

func (q *Query) defaults() {
	if q.Limit <= 0 {
		q.Limit = 10
	}
	if q.Depth <= 0 {
		q.Depth = max(50, 3*q.Limit)
	}
	if q.Mode == "" {
		q.Mode = ModeHybrid
	}
}

// Signal is one ranking signal's view of a hit.
type Signal struct {
	Name         string  `json:"name"`         // bm25, vector:lexical, vector:ollama
	Rank         int     `json:"rank"`         // 1-based, across every vault searched
	Score        float64 `json:"score"`        // BM25 score or cosine similarity
	Contribution float64 `json:"contribution"` // share of the fused score
}

// Hit is a search result: the memory's card and why it ranked.
type Hit struct {
	Doc
	Scope   schema.Scope `json:"scope"`
	Score   float64      `json:"score"`
	Signals []Signal     `json:"signals,omitempty"`
}

// Candidates are one vault's ranked lists before fusion.
type Candidates struct {
	Scope      schema.Scope
	Text       []Hit // by BM25, best first
	Vector     []Hit // by cosine, best first
	VectorName string
	Warnings   []string
}

// Result is a fused search.
type Result struct {
	Hits     []Hit    `json:"hits"`
	Mode     Mode     `json:"mode"` // the mode used, after any fallback
	Warnings []string `json:"warnings,omitempty"`
}

// rrfK dampens reciprocal rank fusion: 1/(k+rank), the usual constant.
const rrfK = 60

// Candidates syncs the cache and returns this vault's ranked lists.
func (ix *Index) Candidates(ctx context.Context, q Query) (*Candidates, error) {
	q.defaults()
	var out *Candidates
	err := ix.view(ctx, func(s *snapshot) error {
		var err error
		out, err = ix.candidates(ctx, s, q)
		return err
	})
	return out, err
}

func (ix *Index) candidates(ctx context.Context, s *snapshot, q Query) (*Candidates, error) {
	c := &Candidates{Scope: ix.v.Scope}
	filters := filterQueries(q)
	wantText := q.Mode != ModeVector || strings.TrimSpace(q.Text) == ""
	wantVector := q.Mode != ModeText && strings.TrimSpace(q.Text) != ""
	// Both legs need the bleve index; open it first, then run them at once.
	if _, err := s.index(); err != nil {
		return nil, err
	}
	var vec *vectorFile
	if wantVector {
		var err error
		if vec, err = s.vectors(); err != nil {
			return nil, err
		}
		if vec == nil {
			c.Warnings = append(c.Warnings, "vector search is off for "+ix.v.Root+" (no embedder); using full text")
			wantVector, wantText = false, true
		}
	}
	var textErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if wantText {
			c.Text, textErr = ix.textSearch(ctx, s, q, filters)
		}
	}()
	var vecHits []Hit
	var vecErr error
	if wantVector {
		vecHits, vecErr = ix.vectorSearch(ctx, s, q, filters)
	}
	<-done
	if textErr != nil {
		return nil, textErr
	}
	switch {
	case errors.Is(vecErr, ErrEmbedderUnavailable):
		msg := fmt.Sprintf("%v; searching full text only", vecErr)
		ix.warn("embed", msg)
		c.Warnings = append(c.Warnings, msg)
		if !wantText {
			if c.Text, textErr = ix.textSearch(ctx, s, q, filters); textErr != nil {
				return nil, textErr
			}
		}
	case vecErr != nil:
		return nil, vecErr
	case wantVector:
		c.Vector = vecHits
		c.VectorName = "vector:" + s.m.Embedder.Name
	}
	return c, nil
}

func filterQueries(q Query) []query.Query {
	var fs []query.Query
	if len(q.Kinds) > 0 {
		var ks []query.Query
		for _, k := range q.Kinds {
			ks = append(ks, term(fKind, string(k)))
		}
		fs = append(fs, bleve.NewDisjunctionQuery(ks...))
	}
	for _, t := range q.Tags {
		fs = append(fs, term(fTags, strings.ToLower(t)))
	}
	if len(q.Statuses) > 0 {
		var ss []query.Query
		for _, st := range q.Statuses {
			ss = append(ss, term(fStatus, string(st)))
			if st == schema.StatusActive {
				ss = append(ss, term(fStatus, string(schema.StatusOpen)))
			}
		}
		fs = append(fs, bleve.NewDisjunctionQuery(ss...))
	}
	if !q.Since.IsZero() || !q.Until.IsZero() {
		incl := true
		dq := bleve.NewDateRangeInclusiveQuery(q.Since, q.Until, &incl, &incl)
		dq.SetField(fUpdated)
		fs = append(fs, dq)
	}
	return fs
}

func term(field, v string) *query.TermQuery {
	t := bleve.NewTermQuery(v)
	t.SetField(field)
	return t
}

// textQuery matches the query's words in each text field, weighting the
// short, dense fields above the body.
func textQuery(text string) query.Query {
	match := func(field string, boost float64) query.Query {
		m := bleve.NewMatchQuery(text)
		m.SetField(field)
		m.SetBoost(boost)
		return m
	}
	qs := []query.Query{match(fTitle, 2.0), match(fSummary, 1.5), match(fTriggers, 2.0), match(fBody, 1.0)}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		t := term(fTags, strings.Trim(w, ".,;:!?\"'()[]{}"))
		t.SetBoost(1.5)
		qs = append(qs, t)
	}
	return bleve.NewDisjunctionQuery(qs...)
}

func (ix *Index) textSearch(ctx context.Context, s *snapshot, q Query, filters []query.Query) ([]Hit, error) {
	bi, err := s.index()
	if err != nil {
		return nil, err
	}
	var main query.Query
	empty := strings.TrimSpace(q.Text) == ""
	if empty {
		main = bleve.NewMatchAllQuery()
	} else {
		main = textQuery(q.Text)
	}
	if len(filters) > 0 {
		main = bleve.NewConjunctionQuery(append([]query.Query{main}, filters...)...)
	}
	req := bleve.NewSearchRequestOptions(main, q.Depth, 0, false)
	req.Fields = storedFields
	if empty {
		req.SortBy([]string{"-" + fUpdated, "_id"})
	}
	res, err := bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for i, h := range res.Hits {
		hit := Hit{Doc: docFromFields(ix.v.Scope, h.ID, h.Fields), Scope: ix.v.Scope}
		score := h.Score
		if empty {
			score = 0
		}
		hit.Signals = []Signal{{Name: "bm25", Rank: i + 1, Score: score}}
		hits = append(hits, hit)
	}
	return hits, nil
}

// idfFunc looks up inverse document frequencies in the snapshot's index.
func idfFunc(ctx context.Context, s *snapshot) (IDF, func(), error) {
	bi, err := s.index()
	if err != nil {
		return nil, nil, err
	}
	adv, err := bi.Advanced()
	if err != nil {
		return nil, nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, nil, err
	}
	n, _ := r.DocCount()
	count := func(t, field string) uint64 {
		tfr, err := r.TermFieldReader(ctx, []byte(t), field, false, false, false)
		if err != nil {
			return 0
		}
		defer tfr.Close()
		return tfr.Count()
	}
	cache := map[string]float64{}
	idf := func(t string) float64 {
		if v, ok := cache[t]; ok {
			return v
		}
		df := float64(max(count(t, fBody), count(t, fTitle)))
		v := math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		cache[t] = v
		return v
	}
	return idf, func() { r.Close() }, nil
}

func (ix *Index) vectorSearch(ctx context.Context, s *snapshot, q Query, filters []query.Query) ([]Hit, error) {
	idf, done, err := idfFunc(ctx, s)
	if err != nil {
		return nil, err
	}
	qv, err := ix.emb.EmbedQuery(ctx, q.Text, idf)
	done()
	if err != nil {
		return nil, err
	}
	type scored struct {
		id  string
		cos float32
	}
	var floor float32
	if nf, ok := ix.emb.(noiseFloor); ok {
		floor = nf.MinCosine()
	}
	var all []scored
	for i := range s.m.files {
		e := &s.m.files[i]
		if e.row < 0 || e.flags != 0 {
			continue
		}
		if c := s.vec.dot(qv, int(e.row)); c > floor {
			all = append(all, scored{id: docIDOf(e.path), cos: c})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].cos != all[j].cos {
			return all[i].cos > all[j].cos
		}
		return all[i].id < all[j].id
	})
	// Take extra candidates when filters may discard some.
	want := q.Depth
	if len(filters) > 0 {
		want *= 4
	}
	if len(all) > want {
		all = all[:want]
	}
	if len(all) == 0 {
		return nil, nil
	}
	ids := make([]string, len(all))
	for i, a := range all {
		ids[i] = a.id
	}
	var main query.Query = bleve.NewDocIDQuery(ids)
	if len(filters) > 0 {
		main = bleve.NewConjunctionQuery(append([]query.Query{main}, filters...)...)
	}
	req := bleve.NewSearchRequestOptions(main, len(ids), 0, false)
	req.Fields = storedFields
	res, err := s.bi.SearchInContext(ctx, req) // opened by idfFunc above
	if err != nil {
		return nil, fmt.Errorf("vector candidates: %w", err)
	}
	docs := make(map[string]Doc, len(res.Hits))
	for _, h := range res.Hits {
		docs[h.ID] = docFromFields(ix.v.Scope, h.ID, h.Fields)
	}
	var hits []Hit
	for _, a := range all {
		d, ok := docs[a.id]
		if !ok {
			continue
		}
		hits = append(hits, Hit{Doc: d, Scope: ix.v.Scope, Signals: []Signal{{Name: "vector", Rank: len(hits) + 1, Score: float64(a.cos)}}})
		if len(hits) == q.Depth {
			break
		}
	}
	return hits, nil
}

// Search syncs and searches every index given and fuses their results.
func Search(ctx context.Context, ixs []*Index, q Query) (*Result, error) {
	q.defaults()
	var cs []*Candidates
	for _, ix := range ixs {
		c, err := ix.Candidates(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ix.v.Root, err)
		}
		cs = append(cs, c)
	}
	return Fuse(q, cs), nil
}

// Fuse merges per-vault candidate lists: each signal's lists are merged by
// raw score into one global ranking, and the rankings are combined by
// reciprocal rank fusion. A single-signal search keeps the raw score.
func Fuse(q Query, cs []*Candidates) *Result {
	q.defaults()
	res := &Result{Mode: q.Mode}
	var text, vec []Hit
	vecName := "vector"
	for _, c := range cs {
		text = append(text, c.Text...)
		vec = append(vec, c.Vector...)
		if c.VectorName != "" {
			vecName = c.VectorName
		}
		res.Warnings = append(res.Warnings, c.Warnings...)
	}
	byScore := func(hs []Hit) {
		sort.SliceStable(hs, func(i, j int) bool {
			if hs[i].Signals[0].Score != hs[j].Signals[0].Score {
				return hs[i].Signals[0].Score > hs[j].Signals[0].Score
			}
			return newerFirst(hs[i], hs[j])
		})
	}
	byScore(text)
	byScore(vec)
	if len(vec) == 0 && q.Mode != ModeText {
		res.Mode = ModeText
	}
	if len(text) == 0 && len(vec) > 0 {
		res.Mode = ModeVector
	}
	if len(text) > 0 && len(vec) > 0 && q.Mode == ModeHybrid {
		res.Mode = ModeHybrid
	}
	fused := map[string]*Hit{}
	var order []*Hit
	add := func(list []Hit, name string) {
		for i, h := range list {
			key := h.URI.String()
			f, ok := fused[key]
			if !ok {
				hh := h
				hh.Signals = nil
				f = &hh
				fused[key] = f
				order = append(order, f)
			}
			sig := Signal{Name: name, Rank: i + 1, Score: h.Signals[0].Score}
			if res.Mode == ModeHybrid {
				sig.Contribution = 1 / float64(rrfK+i+1)
			} else {
				sig.Contribution = sig.Score
			}
			f.Score += sig.Contribution
			f.Signals = append(f.Signals, sig)
		}
	}
	if res.Mode != ModeVector {
		add(text, "bm25")
	}
	if res.Mode != ModeText {
		add(vec, vecName)
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Score != order[j].Score {
			return order[i].Score > order[j].Score
		}
		return newerFirst(*order[i], *order[j])
	})
	for i, h := range order {
		if i == q.Limit {
			break
		}
		res.Hits = append(res.Hits, *h)
	}
	if res.Hits == nil {
		res.Hits = []Hit{}
	}
	return res
}

// newerFirst breaks score ties: the more recently updated memory first,
// then by URI, so equal inputs always give the same order.
func newerFirst(a, b Hit) bool {
	if !a.Updated.Equal(b.Updated) {
		return a.Updated.After(b.Updated)
	}
	return a.URI.String() < b.URI.String()
}
