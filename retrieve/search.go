package retrieve

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// Request is a ranked retrieval.
type Request struct {
	Query    string
	Kinds    []schema.Kind
	Tags     []string
	Statuses []schema.Status
	Since    time.Time
	Until    time.Time
	Limit    int
	Mode     index.Mode
	// Session, when set, makes what it was already shown rank lower.
	Session string
	// Safe leaves out memories tagged as known-bad paths.
	Safe bool
	// Record logs the results as an access of this kind ("search",
	// "prompt") when they reach an agent.
	Record string
	// Depth is how many candidates each signal contributes per vault.
	Depth int

	stats *index.AccessStats // read once by a caller making many searches
}

// Result is a ranked list.
type Result struct {
	Items    []Item      `json:"items"`
	Mode     index.Mode  `json:"mode"`
	Window   *Window     `json:"window,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`
	Now      time.Time   `json:"now"`
	Query    string      `json:"query"`
	Order    string      `json:"order,omitempty"`
	Total    int         `json:"candidates"`
	Stats    *SearchCost `json:"-"`
}

// SearchCost is what a search looked at, for benchmarks.
type SearchCost struct{ Candidates int }

// linkFanout is how many of the strongest hits share score with their links.
const linkFanout = 5

// Search ranks memories for a query across every vault.
func (r *Retriever) Search(ctx context.Context, req Request) (*Result, error) {
	var res *Result
	err := r.views(ctx, func(vs []*index.View) error {
		var err error
		res, err = r.search(ctx, vs, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	if req.Record != "" && len(res.Items) > 0 {
		r.record(req.Record, req.Session, res.Items)
	}
	return res, nil
}

func (r *Retriever) search(ctx context.Context, vs []*index.View, req Request) (*Result, error) {
	if req.Limit <= 0 {
		req.Limit = 10
	}
	if req.Depth <= 0 {
		req.Depth = max(50, 5*req.Limit)
	}
	now := r.Now()
	if req.stats == nil {
		req.stats = r.stats()
	}
	s := &scorer{cfg: r.cfg, now: now, time: ParseTime(req.Query, now), access: req.stats, safe: req.Safe, stale: r.staleSet()}
	s.shown = s.access.ShownIn(req.Session)
	res := &Result{Mode: req.Mode, Window: s.time.Window, Now: now, Query: req.Query}
	switch s.time.Order {
	case OrderEarliest:
		res.Order = "earliest"
	case OrderLatest:
		res.Order = "latest"
	}
	q := index.Query{Text: s.time.Topic, Kinds: req.Kinds, Tags: req.Tags, Statuses: req.Statuses, Since: req.Since, Until: req.Until,
		Limit: req.Depth, Depth: req.Depth, Mode: req.Mode}
	hits, err := candidates(vs, q, req.Mode, res)
	if err != nil {
		return nil, err
	}
	// Archived memories stay out unless asked for by status.
	items, order := s.collect(hits, wantsStatus(req.Statuses, schema.StatusArchived))
	res.Total = len(order)
	s.listing = strings.TrimSpace(req.Query) == ""
	kept := order[:0]
	for _, it := range order {
		if s.score(it) {
			kept = append(kept, it)
		}
	}
	order = kept
	sortItems(order)
	if !s.listing {
		if err := r.linkShare(vs, s, items, &order); err != nil {
			return nil, err
		}
	}
	if !wantsStatus(req.Statuses, schema.StatusSuperseded) {
		var err error
		if order, err = r.resolveSuperseded(vs, s, items, order); err != nil {
			return nil, err
		}
	}
	s.orderBoost(order)
	sortItems(order)
	order = collapseDuplicates(order)
	for i, it := range order {
		if i == req.Limit {
			break
		}
		res.Items = append(res.Items, *it)
	}
	if res.Items == nil {
		res.Items = []Item{}
	}
	return res, nil
}

// candidates asks every view for its candidates and fuses them; res gets
// the views' warnings and the mode that ranked.
func candidates(vs []*index.View, q index.Query, mode index.Mode, res *Result) ([]index.Hit, error) {
	var cands []*index.Candidates
	for _, v := range vs {
		c, err := v.Candidates(q)
		if err != nil {
			return nil, err
		}
		cands = append(cands, c)
		res.Warnings = append(res.Warnings, c.Warnings...)
	}
	hits, fused := fuse(cands)
	res.Mode = fused
	if mode != "" && mode != index.ModeHybrid {
		res.Mode = mode
	}
	return hits, nil
}

// collect makes an item of each hit, once per memory, in the hits' order,
// leaving archived memories out unless wanted, and notes the strongest
// text and vector scores for normalization.
func (s *scorer) collect(hits []index.Hit, wantArchived bool) (map[string]*Item, []*Item) {
	items := map[string]*Item{}
	var order []*Item
	for _, h := range hits {
		if h.Doc.Status == schema.StatusArchived && !wantArchived {
			continue
		}
		key := h.URI.String()
		it, ok := items[key]
		if !ok {
			it = &Item{Doc: h.Doc, Scope: h.Scope}
			items[key] = it
			order = append(order, it)
		}
		it.Signals = h.Signals
		for _, sig := range h.Signals {
			switch sig.Name {
			case index.SignalText:
				s.textMax = max(s.textMax, sig.Score)
			case index.SignalVector:
				s.vecMax = max(s.vecMax, sig.Score)
			}
		}
	}
	return items, order
}

func wantsStatus(sts []schema.Status, want schema.Status) bool {
	for _, s := range sts {
		if s == want {
			return true
		}
	}
	return false
}

// linkShare gives memories linked to or from the strongest hits a share of
// their score: a decision's rationale rides along with the decision.
func (r *Retriever) linkShare(vs []*index.View, s *scorer, items map[string]*Item, order *[]*Item) error {
	w := s.cfg.Weights.Links
	if w == 0 || len(*order) == 0 {
		return nil
	}
	ls := &linkShares{w: w, top: (*order)[:min(linkFanout, len(*order))], bonus: map[string]float64{}, from: map[string]string{}, docs: map[string]index.Doc{}}
	var targets []schema.URI
	var wiki []string
	var topURIs []string
	for _, it := range ls.top {
		topURIs = append(topURIs, it.URI.String())
		for _, l := range it.Links {
			if u, err := schema.ParseURI(l, it.Scope); err == nil {
				targets = append(targets, u)
				ls.give(u.String(), it)
			}
		}
		wiki = append(wiki, it.Wiki...)
	}
	for _, v := range vs {
		if err := ls.inView(v, targets, wiki, topURIs); err != nil {
			return err
		}
	}
	for uri, b := range ls.bonus {
		it, ok := items[uri]
		if !ok {
			d, found := ls.docs[uri]
			if !found {
				continue
			}
			it = &Item{Doc: d, Scope: d.URI.Scope}
			if pen, excluded := s.penalty(it); excluded || pen == 0 {
				continue
			}
			items[uri] = it
			*order = append(*order, it)
			it.Note = "linked with " + ls.from[uri]
		}
		it.Score += b
		it.Parts = append(it.Parts, Part{Name: "link", Value: 1, Effect: b})
	}
	sortItems(*order)
	return nil
}

// linkShares are the shares of score the strongest hits (top) give the
// memories linked with them: the best share per memory, whom it came
// from, and the memories' documents.
type linkShares struct {
	w     float64
	top   []*Item
	bonus map[string]float64
	from  map[string]string
	docs  map[string]index.Doc
}

// give offers the memory at uri a share of src's score; it keeps the best.
func (ls *linkShares) give(uri string, src *Item) {
	if uri == src.URI.String() {
		return
	}
	if b := ls.w * src.Score; b > ls.bonus[uri] {
		ls.bonus[uri], ls.from[uri] = b, src.URI.String()
	}
}

// inView finds in one view the documents of the top hits' link targets,
// the memories their wiki links name, and the memories linking to them.
func (ls *linkShares) inView(v *index.View, targets []schema.URI, wiki, topURIs []string) error {
	ds, err := v.Docs(targets)
	if err != nil {
		return err
	}
	maps.Copy(ls.docs, ds)
	if len(wiki) > 0 {
		byName, err := v.ByName(wiki)
		if err != nil {
			return err
		}
		for _, it := range ls.top {
			for _, name := range it.Wiki {
				if d, ok := byName[name]; ok {
					ls.docs[d.URI.String()] = d
					ls.give(d.URI.String(), it)
				} else if d, ok := byName[schema.Slugify(name)]; ok {
					ls.docs[d.URI.String()] = d
					ls.give(d.URI.String(), it)
				}
			}
		}
	}
	back, err := v.List(index.Query{LinksTo: topURIs, Depth: 20})
	if err != nil {
		return err
	}
	for _, d := range back {
		ls.docs[d.URI.String()] = d
		for _, l := range d.Links {
			for _, it := range ls.top {
				if l == it.URI.String() {
					ls.give(d.URI.String(), it)
				}
			}
		}
	}
	return nil
}

// maxSupersedeHops bounds successor chains (a cycle written by hand must
// not loop).
const maxSupersedeHops = 8

// resolveSuperseded never returns a superseded memory as current: its
// successor takes its place (and its score, when higher), and says so.
func (r *Retriever) resolveSuperseded(vs []*index.View, s *scorer, items map[string]*Item, order []*Item) ([]*Item, error) {
	out := order[:0]
	for _, it := range order {
		if it.Status != schema.StatusSuperseded {
			out = append(out, it)
			continue
		}
		succ, err := r.successor(vs, it)
		if err != nil {
			return nil, err
		}
		if succ == nil {
			continue // superseded with no successor found: drop it
		}
		key := succ.URI.String()
		if cur, ok := items[key]; ok && cur != it {
			if it.Score > cur.Score {
				cur.Score = it.Score
				cur.Note = fmt.Sprintf("replaces %s (superseded), the stronger match", it.URI)
			}
			continue
		}
		n := &Item{Doc: *succ, Scope: succ.URI.Scope, Score: it.Score, Signals: it.Signals,
			Parts: append([]Part{}, it.Parts...), Note: fmt.Sprintf("replaces %s (superseded), the best match", it.URI)}
		items[key] = n
		out = append(out, n)
	}
	return out, nil
}

func (r *Retriever) successor(vs []*index.View, it *Item) (*index.Doc, error) {
	cur := it.Doc
	for hop := 0; hop < maxSupersedeHops && cur.Status == schema.StatusSuperseded; hop++ {
		u, err := schema.ParseURI(cur.SupersededBy, cur.URI.Scope)
		if err != nil || cur.SupersededBy == "" {
			return nil, nil
		}
		var next *index.Doc
		for _, v := range vs {
			ds, err := v.Docs([]schema.URI{u})
			if err != nil {
				return nil, err
			}
			if d, ok := ds[u.String()]; ok {
				next = &d
				break
			}
		}
		if next == nil {
			return nil, nil
		}
		cur = *next
	}
	if cur.Status == schema.StatusSuperseded {
		return nil, nil
	}
	return &cur, nil
}

func (r *Retriever) record(kind, session string, items []Item) {
	by := map[*index.Index][]string{}
	for _, it := range items {
		for _, ix := range r.ixs {
			if ix.Scope() == it.Scope {
				by[ix] = append(by[ix], it.URI.String())
			}
		}
	}
	for ix, uris := range by {
		_ = ix.RecordAccess(index.Access{Time: r.Now(), Kind: kind, Session: session, URIs: uris})
	}
}
