package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
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
	ModeHybrid Mode = "hybrid" // both, fused by retrieve
)

// Query is a search.
type Query struct {
	Text     string
	Kinds    []schema.Kind
	Tags     []string
	Statuses []schema.Status
	Since    time.Time // updated at or after
	Until    time.Time // updated at or before
	Pinned   bool      // only pinned memories
	LinksTo  []string  // only memories whose links include one of these URIs
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

// Hit is a search result: the memory's card and why it ranked.
type Hit struct {
	Doc
	Scope   schema.Scope `json:"scope"`
	Score   float64      `json:"score"`
	Signals []Signal     `json:"signals,omitempty"`
}

// Candidates are one vault's ranked lists before fusion.
type Candidates struct {
	Scope    schema.Scope
	Text     []Hit // by text score, best first
	Vector   []Hit // by cosine, best first
	Warnings []string
}

// Candidates syncs the cache and returns this vault's ranked lists.
func (ix *Index) Candidates(ctx context.Context, q Query) (*Candidates, error) {
	var out *Candidates
	err := ix.View(ctx, func(v *View) error {
		var err error
		out, err = v.Candidates(q)
		return err
	})
	return out, err
}

// View is a synced, consistent view of one vault's cache for several
// queries: the sync is paid once.
type View struct {
	ix  *Index
	s   *snapshot
	ctx context.Context
}

// View syncs the cache and runs fn on a view of it.
func (ix *Index) View(ctx context.Context, fn func(*View) error) error {
	return ix.view(ctx, func(s *snapshot) error { return fn(&View{ix: ix, s: s, ctx: ctx}) })
}

// Scope is the scope of the vault viewed.
func (v *View) Scope() schema.Scope { return v.ix.v.Scope }

// Count is the number of indexed memories.
func (v *View) Count() int { return v.s.m.Docs }

// Candidates returns the vault's ranked lists for a query.
func (v *View) Candidates(q Query) (*Candidates, error) {
	q.defaults()
	return v.ix.candidates(v.ctx, v.s, q)
}

// List returns memories matching the query's filters, most recent first;
// its text is ignored.
func (v *View) List(q Query) ([]Doc, error) {
	q.Text = ""
	q.defaults()
	hits, err := v.ix.textSearch(v.ctx, v.s, q, filterQueries(q))
	if err != nil {
		return nil, err
	}
	out := make([]Doc, len(hits))
	for i, h := range hits {
		out[i] = h.Doc
	}
	return out, nil
}

// Docs returns the indexed memories at the given URIs of this vault.
func (v *View) Docs(uris []schema.URI) (map[string]Doc, error) {
	var ids []string
	for _, u := range uris {
		if u.Scope == v.ix.v.Scope {
			ids = append(ids, u.Path)
		}
	}
	out := map[string]Doc{}
	if len(ids) == 0 {
		return out, nil
	}
	bi, err := v.s.index()
	if err != nil {
		return nil, err
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = storedFields
	res, err := bi.SearchInContext(v.ctx, req)
	if err != nil {
		return nil, err
	}
	for _, h := range res.Hits {
		d := docFromFields(v.ix.v.Scope, h.ID, h.Fields)
		out[d.URI.String()] = d
	}
	return out, nil
}

// ByName returns memories whose file name (the last path segment) is one
// of names, to resolve [[wiki]] links.
func (v *View) ByName(names []string) (map[string]Doc, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[schema.Slugify(n)] = true
		want[n] = true
	}
	var uris []schema.URI
	for i := range v.s.m.files {
		e := &v.s.m.files[i]
		if e.flags&flagInvalid != 0 {
			continue
		}
		id := docIDOf(e.path)
		name := id[strings.LastIndexByte(id, '/')+1:]
		if want[name] || want[id] {
			uris = append(uris, schema.URI{Scope: v.ix.v.Scope, Path: id})
		}
	}
	docs, err := v.Docs(uris)
	if err != nil {
		return nil, err
	}
	out := map[string]Doc{}
	for _, d := range docs {
		out[d.URI.Name()] = d
		out[d.URI.Path] = d
	}
	return out, nil
}

func (ix *Index) candidates(ctx context.Context, s *snapshot, q Query) (*Candidates, error) {
	c := &Candidates{Scope: ix.v.Scope}
	q.Text = boundQuery(q.Text)
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
		if vec == nil && s.m.Fallback != nil {
			if err := ix.embedderBack(ctx, q); err != nil {
				return nil, err
			}
			c.Warnings = append(c.Warnings, ix.fallbackWarning(s.m))
			wantVector, wantText = false, true
		} else if vec == nil {
			c.Warnings = append(c.Warnings, "vector search is off for "+ix.v.Root+" (no embedder); using full text")
			wantVector, wantText = false, true
		}
	}
	var textErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A panic here would kill the process past every recover of the
		// caller (a hook must exit 0): it becomes this search's error, and
		// bleve panics on damaged index files, so the cache is rebuilt.
		defer func() {
			if r := recover(); r != nil {
				textErr = fmt.Errorf("%w: full-text search failed: %v", errRebuild, r)
			}
		}()
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
		ix.warn("embed", fmt.Sprintf("%v; searching full text only", vecErr))
		ix.mu.Lock()
		c.Warnings = append(c.Warnings, ix.embedDown)
		ix.mu.Unlock()
		if !wantText {
			if c.Text, textErr = ix.textSearch(ctx, s, q, filters); textErr != nil {
				return nil, textErr
			}
		}
	case vecErr != nil:
		return nil, vecErr
	case wantVector:
		c.Vector = vecHits
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
	if q.Pinned {
		b := bleve.NewBoolFieldQuery(true)
		b.SetField(fPinned)
		fs = append(fs, b)
	}
	if len(q.LinksTo) > 0 {
		var ls []query.Query
		for _, u := range q.LinksTo {
			ls = append(ls, term(fLinks, u))
		}
		fs = append(fs, bleve.NewDisjunctionQuery(ls...))
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

func (ix *Index) textSearch(ctx context.Context, s *snapshot, q Query, filters []query.Query) ([]Hit, error) {
	bi, err := s.index()
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(q.Text) == "" {
		if len(q.Tags) == 0 && len(q.LinksTo) == 0 {
			return ix.manifestListing(ctx, s, bi, q)
		}
		return ix.listing(ctx, bi, q, filters)
	}
	depth := q.Depth
	if q.hasRangeFilters() {
		depth *= 4 // checked on the page: take more than needed
	}
	ranked, err := ix.bm25(ctx, s, q.Text, depth, q)
	if err != nil || len(ranked) == 0 {
		return nil, err
	}
	ids := make([]string, len(ranked))
	for i, h := range ranked {
		ids[i] = h.id
	}
	docs, err := fetch(ctx, bi, ix.v.Scope, ids, filters)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(ranked))
	for _, h := range ranked {
		d, ok := docs[h.id]
		if !ok {
			continue
		}
		hits = append(hits, Hit{Doc: d, Scope: ix.v.Scope, Signals: []Signal{{Name: SignalText, Rank: len(hits) + 1, Score: h.score, Coverage: h.coverage}}})
		if len(hits) == q.Depth {
			break
		}
	}
	return hits, nil
}

// hasRangeFilters reports filters that postings cannot apply: dates,
// pinned, links.
func (q Query) hasRangeFilters() bool {
	return !q.Since.IsZero() || !q.Until.IsZero() || q.Pinned || len(q.LinksTo) > 0
}

// manifestListing serves a listing by kind, status, pin and time from the
// manifest, which every read has loaded anyway, and fetches only the page
// it returns: sorting thousands of memories in bleve costs tens of
// milliseconds, here a fraction of one.
func (ix *Index) manifestListing(ctx context.Context, s *snapshot, bi bleve.Index, q Query) ([]Hit, error) {
	kinds := map[uint8]bool{}
	for _, k := range q.Kinds {
		kinds[code(kindCodes, k)] = true
	}
	statuses := map[uint8]bool{}
	for _, st := range q.Statuses {
		statuses[code(statusCodes, st)] = true
		if st == schema.StatusActive {
			statuses[code(statusCodes, schema.StatusOpen)] = true
		}
	}
	type cand struct {
		id      string
		updated int64
	}
	var cands []cand
	for i := range s.m.files {
		e := &s.m.files[i]
		if e.flags&flagInvalid != 0 {
			continue
		}
		m := e.meta
		switch {
		case len(kinds) > 0 && !kinds[m.kind],
			len(statuses) > 0 && !statuses[m.status],
			q.Pinned && !m.pinned,
			!q.Since.IsZero() && m.updated < q.Since.Unix(),
			!q.Until.IsZero() && m.updated > q.Until.Unix():
			continue
		}
		cands = append(cands, cand{docIDOf(e.path), m.updated})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].updated != cands[j].updated {
			return cands[i].updated > cands[j].updated
		}
		return cands[i].id < cands[j].id
	})
	if len(cands) > q.Depth {
		cands = cands[:q.Depth]
	}
	if len(cands) == 0 {
		return nil, nil
	}
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	docs, err := fetch(ctx, bi, ix.v.Scope, ids, nil)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(cands))
	for _, c := range cands {
		if d, ok := docs[c.id]; ok {
			hits = append(hits, Hit{Doc: d, Scope: ix.v.Scope, Signals: []Signal{{Name: SignalText, Rank: len(hits) + 1}}})
		}
	}
	return hits, nil
}

// listing returns memories matching the filters, most recent first.
func (ix *Index) listing(ctx context.Context, bi bleve.Index, q Query, filters []query.Query) ([]Hit, error) {
	var main query.Query = bleve.NewMatchAllQuery()
	if len(filters) > 0 {
		main = bleve.NewConjunctionQuery(append([]query.Query{main}, filters...)...)
	}
	req := bleve.NewSearchRequestOptions(main, q.Depth, 0, false)
	req.Fields = storedFields
	req.SortBy([]string{"-" + fUpdated, "_id"})
	res, err := bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("list: %w", err)
	}
	hits := make([]Hit, 0, len(res.Hits))
	for i, h := range res.Hits {
		hits = append(hits, Hit{Doc: docFromFields(ix.v.Scope, h.ID, h.Fields), Scope: ix.v.Scope, Signals: []Signal{{Name: SignalText, Rank: i + 1}}})
	}
	return hits, nil
}

// fetch loads the stored fields of memories by id, keeping those that
// pass the filters.
func fetch(ctx context.Context, bi bleve.Index, scope schema.Scope, ids []string, filters []query.Query) (map[string]Doc, error) {
	var main query.Query = bleve.NewDocIDQuery(ids)
	if len(filters) > 0 {
		main = bleve.NewConjunctionQuery(append([]query.Query{main}, filters...)...)
	}
	req := bleve.NewSearchRequestOptions(main, len(ids), 0, false)
	req.Fields = storedFields
	req.Score = "none"
	res, err := bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	out := make(map[string]Doc, len(res.Hits))
	for _, h := range res.Hits {
		out[h.ID] = docFromFields(scope, h.ID, h.Fields)
	}
	return out, nil
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
	// In hybrid search the text leg finds what shares words; below the
	// embedder's noise floor a similarity is as likely hash collisions as
	// shared words, so it is not evidence there. A vector-only search
	// ranks everything it has.
	var floor float32
	if nf, ok := ix.emb.(noiseFloor); ok && q.Mode == ModeHybrid {
		floor = nf.MinCosine()
	}
	var all []scored
	cos := s.vec.scoreAll(qv)
	for i := range s.m.files {
		e := &s.m.files[i]
		if e.row < 0 || e.flags != 0 || int(e.row) >= len(cos) {
			continue
		}
		if c := cos[e.row]; c > floor {
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
		hits = append(hits, Hit{Doc: d, Scope: ix.v.Scope, Signals: []Signal{{Name: SignalVector, Source: s.m.Embedder.Name, Rank: len(hits) + 1, Score: float64(a.cos)}}})
		if len(hits) == q.Depth {
			break
		}
	}
	return hits, nil
}

// Version names the indexed state this view reads: its generation and the
// manifest's write sequence. Any change to the vault's files the cache
// has seen (a commit, a hand edit) gives another version.
func (v *View) Version() string { return v.s.gen + "." + strconv.FormatUint(v.s.m.Seq, 10) }

// embedderBack asks the embedder of a full-text fallback cache for the
// query's vector: errRebuild when it answers (the cache is rebuilt with
// vectors), nil while it stays down.
func (ix *Index) embedderBack(ctx context.Context, q Query) error {
	if _, err := ix.emb.EmbedQuery(ctx, q.Text, nil); err != nil {
		return nil
	}
	return fmt.Errorf("%w: the embedder %s answers again", errRebuild, describeEmbedder(ix.emb.Info()))
}

// fallbackWarning says, once per Index, that vectors are off because the
// embedder was down when the cache was built.
func (ix *Index) fallbackWarning(m *manifest) string {
	ix.warn("embed", fmt.Sprintf("%v: %s was unavailable when the cache of %s was built; searching full text only", ErrEmbedderUnavailable, describeEmbedder(*m.Fallback), ix.v.Root))
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.embedDown
}
