package index

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync"

	"encoding/binary"
	"hash/fnv"

	index "github.com/blevesearch/bleve_index_api"
	"github.com/cairnmem/cairn/schema"
)

// BM25 parameters: k1 saturates term frequency; each field's b (in
// textFields) sets how much its length normalizes.
const bm25K1 = 1.2

// Pseudo-relevance feedback (RM3): the best first-pass memories lend their
// distinctive words to a second pass, which finds memories that talk about
// the same thing in other words ("photography setup" → camera, lens).
const (
	prfDocs      = 5    // first-pass memories read for feedback
	prfTerms     = 10   // words added to the query
	prfWeight    = 0.35 // share of the expanded query given to those words
	prfMinDocs   = 2    // a feedback word must occur in this many of them
	prfMinCorpus = 8    // below this many memories feedback, associations and informative words are noise
	// prfMinWords is the content words a feedback memory needs on average:
	// a few sentences share little but names and small talk, and feedback
	// from them costs turn-level retrieval more than it brings.
	prfMinWords = 40
)

// queryTerm is an analyzed query word and its weight.
type queryTerm struct {
	term   string
	weight float64
}

// intentWords are the words of asking rather than of the subject: "can you
// suggest tips", "do you remember what I mentioned". They are kept, at a
// fraction of a content word's weight.
var intentWords = func() map[string]bool {
	words := `suggest suggestion recommend recommendation tip tips advice advise idea ideas think thought help tell know
		remember remind mention mentioned said say ask asked please thanks thank want need like would could should
		can do does did any some something anything good great best way ways thing things sure maybe really also
		get got going wondering wonder look looking find show give`
	out := map[string]bool{}
	for _, t := range analyzer().Analyze([]byte(words)) {
		out[string(t.Term)] = true
	}
	return out
}()

const intentWeight = 0.3

// analyzeQuery turns query text into weighted index terms.
func analyzeQuery(text string) []queryTerm {
	counts := map[string]float64{}
	var order []string
	for _, t := range analyzer().Analyze([]byte(text)) {
		term := string(t.Term)
		if len(term) < 2 {
			continue
		}
		if _, ok := counts[term]; !ok {
			order = append(order, term)
		}
		w := 1.0
		if intentWords[term] {
			w = intentWeight
		}
		counts[term] += w
	}
	out := make([]queryTerm, 0, len(order))
	for _, t := range order {
		out = append(out, queryTerm{term: t, weight: counts[t]})
	}
	return out
}

// bm25Hit is a memory's full-text score.
type bm25Hit struct {
	id       string
	score    float64
	coverage float64 // share of the query's most informative words the memory contains
	key      docKey
}

// bm25 ranks the snapshot's memories by BM25F over the text fields, read
// straight from bleve's postings: raw term frequency, per-field length
// normalization against exact average lengths, one IDF per term over all
// fields. A second ranking by the query's informative words alone is
// blended in; the query is expanded with the vault's own word associations
// and, for long memories, with feedback from the first pass; finally each
// memory is scored in the context of its session (see context.go).
func (ix *Index) bm25(ctx context.Context, s *snapshot, text string, depth int, q Query) ([]bm25Hit, error) {
	bi, err := s.index()
	if err != nil {
		return nil, err
	}
	adv, err := bi.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	terms := analyzeQuery(text)
	if len(terms) == 0 {
		return nil, nil
	}
	sc := newScorer(ctx, r, s)
	if terms, err = sc.correct(terms); err != nil {
		return nil, err
	}
	allowed, err := sc.keywordFilter(q)
	if err != nil {
		return nil, err
	}
	scores := map[docKey]float64{}
	sc.stats = &queryStats{}
	if err := sc.score(terms, scores); err != nil {
		return nil, err
	}
	stats := sc.stats
	sc.stats = nil
	// In a handful of memories, which words are rare says nothing.
	if s.m.Docs >= prfMinCorpus {
		if err := sc.blendInformative(terms, scores); err != nil {
			return nil, err
		}
		if err := ix.expand(sc, scores, terms, depth, allowed); err != nil {
			return nil, err
		}
	}
	hits, err := ix.inContext(sc, s, scores, stats, depth, allowed)
	if err != nil {
		return nil, err
	}
	stats.cover(hits)
	return hits, nil
}

// expand adds the query's expansion to the scores: pseudo-relevance
// feedback when the best first-pass memories are long enough to lend
// words, else the words the vault associates with the query's rare words.
func (ix *Index) expand(sc *bm25Scorer, scores map[docKey]float64, terms []queryTerm, depth int, allowed map[docKey]bool) error {
	top, err := sc.top(scores, depth, allowed)
	if err != nil || len(top) < prfMinDocs {
		return err
	}
	feedback, long, err := ix.feedback(sc, top, terms)
	if err != nil {
		return err
	}
	if !long {
		associated, err := sc.associations(terms)
		if err != nil {
			return err
		}
		return sc.score(associated, scores)
	}
	if len(feedback) == 0 {
		return nil
	}
	// Scores are linear in term weights: scale the first pass and add the
	// expansion's share instead of scoring every term again.
	for k := range scores {
		scores[k] *= 1 - prfWeight
	}
	return sc.score(feedback, scores)
}

type bm25Scorer struct {
	ctx context.Context
	r   index.IndexReader
	n   float64
	avg [numTextFields]float64
	ids map[docKey]index.IndexInternalID
	df  map[string]float64
	// stats, when set, collects what the context and coverage signals
	// need from the first pass.
	stats *queryStats
}

func newScorer(ctx context.Context, r index.IndexReader, s *snapshot) *bm25Scorer {
	return &bm25Scorer{ctx: ctx, r: r, n: float64(s.m.Docs), avg: s.m.avgLens(), ids: map[docKey]index.IndexInternalID{}}
}

// docKey is an internal document id as a number: scorch ids are eight
// big-endian bytes, and a number keys a map without allocating.
type docKey uint64

func keyOf(id index.IndexInternalID) docKey {
	if len(id) == 8 {
		return docKey(binary.BigEndian.Uint64(id))
	}
	h := fnv.New64a()
	h.Write(id)
	return docKey(h.Sum64())
}

func (sc *bm25Scorer) idf(df float64) float64 {
	return math.Log(1 + (sc.n-df+0.5)/(df+0.5))
}

// score adds the BM25F scores of terms to scores, by internal id.
func (sc *bm25Scorer) score(terms []queryTerm, scores map[docKey]float64) error {
	var tfd index.TermFieldDoc
	docs := map[docKey]*docTF{}
	for _, qt := range terms {
		clear(docs)
		for fi, f := range textFields {
			tfr, err := sc.r.TermFieldReader(sc.ctx, []byte(qt.term), f.name, true, true, false)
			if err != nil {
				return err
			}
			for {
				got, err := tfr.Next(&tfd)
				if err != nil {
					tfr.Close()
					return err
				}
				if got == nil {
					break
				}
				key := keyOf(got.ID)
				d, ok := docs[key]
				if !ok {
					d = &docTF{}
					docs[key] = d
					if _, ok := sc.ids[key]; !ok {
						sc.ids[key] = append(index.IndexInternalID(nil), got.ID...)
					}
				}
				d.tf[fi] = float64(got.Freq)
				if got.Norm > 0 {
					d.len[fi] = 1 / (got.Norm * got.Norm)
				}
			}
			tfr.Close()
		}
		idf := sc.idf(float64(len(docs)))
		if sc.stats != nil {
			sc.stats.add(qt, idf, docs)
		}
		if len(docs) == 0 {
			continue
		}
		for key, d := range docs {
			var tilde float64
			for fi, f := range textFields {
				if d.tf[fi] == 0 {
					continue
				}
				norm := 1 - f.b + f.b*d.len[fi]/sc.avg[fi]
				tilde += f.weight * d.tf[fi] / norm
			}
			scores[key] += qt.weight * idf * tilde * (bm25K1 + 1) / (tilde + bm25K1)
		}
	}
	return nil
}

// docTF is one memory's frequencies and lengths of a query word, by field.
type docTF struct {
	tf  [numTextFields]float64
	len [numTextFields]float64
}

// keywordFilter turns the keyword filters of a query (kinds, tags,
// statuses) into the set of internal ids that pass, read from postings;
// nil means no keyword filter. Other filters are checked on the page of
// results fetched afterwards.
func (sc *bm25Scorer) keywordFilter(q Query) (map[docKey]bool, error) {
	ids := func(field string, values []string) (map[docKey]bool, error) {
		set := map[docKey]bool{}
		for _, v := range values {
			tfr, err := sc.r.TermFieldReader(sc.ctx, []byte(v), field, false, false, false)
			if err != nil {
				return nil, err
			}
			for {
				d, err := tfr.Next(nil)
				if err != nil || d == nil {
					break
				}
				set[keyOf(d.ID)] = true
			}
			tfr.Close()
		}
		return set, nil
	}
	var sets []map[docKey]bool
	if len(q.Kinds) > 0 {
		var ks []string
		for _, k := range q.Kinds {
			ks = append(ks, string(k))
		}
		set, err := ids(fKind, ks)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	for _, t := range q.Tags {
		set, err := ids(fTags, []string{strings.ToLower(t)})
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	if len(q.Statuses) > 0 {
		var ss []string
		for _, st := range q.Statuses {
			ss = append(ss, string(st))
			if st == schema.StatusActive {
				ss = append(ss, string(schema.StatusOpen))
			}
		}
		set, err := ids(fStatus, ss)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	if len(sets) == 0 {
		return nil, nil
	}
	out := sets[0]
	for _, s := range sets[1:] {
		for k := range out {
			if !s[k] {
				delete(out, k)
			}
		}
	}
	return out, nil
}

// top returns the best-scoring memories as external ids.
func (sc *bm25Scorer) top(scores map[docKey]float64, depth int, allowed map[docKey]bool) ([]bm25Hit, error) {
	type kv struct {
		key   docKey
		score float64
	}
	all := make([]kv, 0, len(scores))
	for k, v := range scores {
		all = append(all, kv{k, v})
	}
	// Only the best depth×2 need ordering (some may be filtered out).
	want := depth * 2
	if allowed != nil {
		want = len(all)
	}
	less := func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return all[i].key < all[j].key
	}
	if len(all) > want {
		partialSort(len(all), want, less, func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:want]
	}
	sort.Slice(all, less)
	var out []bm25Hit
	for _, e := range all {
		if allowed != nil && !allowed[e.key] {
			continue
		}
		id, err := sc.r.ExternalID(sc.ids[e.key])
		if err != nil {
			return nil, err
		}
		out = append(out, bm25Hit{id: id, score: e.score, key: e.key})
		if len(out) == depth {
			break
		}
	}
	return out, nil
}

// feedback picks expansion words from the best first-pass memories: words
// frequent in them, rare in the vault, and shared by at least two of them.
// long reports whether those memories are long enough for feedback.
func (ix *Index) feedback(sc *bm25Scorer, top []bm25Hit, query []queryTerm) (terms []queryTerm, long bool, err error) {
	n := min(prfDocs, len(top))
	inQuery := map[string]bool{}
	for _, q := range query {
		inQuery[q.term] = true
	}
	stats, words := ix.feedbackStats(top[:n], top[0].score, inQuery)
	if words < prfMinWords*float64(n) {
		return nil, false, nil // turn-sized memories: what two of them share is small talk
	}
	cands, err := sc.expansionTerms(stats)
	if err != nil || len(cands) == 0 {
		return nil, true, err
	}
	var sum float64
	for _, c := range cands {
		sum += c.w
	}
	var qsum float64
	for _, q := range query {
		qsum += q.weight
	}
	out := make([]queryTerm, len(cands))
	for i, c := range cands {
		// The expansion as a whole weighs prfWeight of the final query.
		out[i] = queryTerm{term: c.term, weight: prfWeight * qsum * c.w / sum}
	}
	return out, true, nil
}

// prfStat is how much the top hits say a word: its share of each hit's
// words weighted by the hit's relative score, and how many hits have it.
type prfStat struct {
	weight float64
	docs   int
}

// feedbackStats reads the top hits' texts in parallel and counts their
// words (not the query's, nor short, intent or number words); words is
// how many were counted in all.
func (ix *Index) feedbackStats(top []bm25Hit, maxScore float64, inQuery map[string]bool) (stats map[string]*prfStat, words float64) {
	stats = map[string]*prfStat{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, h := range top {
		wg.Add(1)
		go func(h bm25Hit) {
			defer wg.Done()
			text, err := ix.memoryText(h.id)
			if err != nil {
				return
			}
			counts := map[string]float64{}
			total := 0.0
			for _, t := range analyzer().Analyze([]byte(text)) {
				term := string(t.Term)
				if len(term) < 3 || inQuery[term] || intentWords[term] || isNumber(term) {
					continue
				}
				counts[term]++
				total++
			}
			if total == 0 {
				return
			}
			mu.Lock()
			words += total
			for term, c := range counts {
				st, ok := stats[term]
				if !ok {
					st = &prfStat{}
					stats[term] = st
				}
				st.weight += (c / total) * (h.score / maxScore)
				st.docs++
			}
			mu.Unlock()
		}(h)
	}
	wg.Wait()
	return stats, words
}

// prfTerm is a word proposed to expand a query, with its weight.
type prfTerm struct {
	term string
	w    float64
}

// expansionTerms are the prfTerms best words of enough top hits, weighted
// by idf; a word in half the vault or more says nothing.
func (sc *bm25Scorer) expansionTerms(stats map[string]*prfStat) ([]prfTerm, error) {
	var cands []prfTerm
	for term, st := range stats {
		if st.docs < prfMinDocs {
			continue
		}
		df, err := sc.docFreq(term)
		if err != nil {
			return nil, err
		}
		if df == 0 || df > sc.n/2 {
			continue
		}
		cands = append(cands, prfTerm{term, st.weight * sc.idf(df)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].w != cands[j].w {
			return cands[i].w > cands[j].w
		}
		return cands[i].term < cands[j].term
	})
	if len(cands) > prfTerms {
		cands = cands[:prfTerms]
	}
	return cands, nil
}

// correct replaces a query word no memory contains with the closest word
// the vault does contain (one edit away, two for long words), preferring
// the most common: "buisiness" finds "business".
func (sc *bm25Scorer) correct(terms []queryTerm) ([]queryTerm, error) {
	fz, ok := sc.r.(index.IndexReaderFuzzy)
	if !ok {
		return terms, nil
	}
	for i, qt := range terms {
		if len([]rune(qt.term)) < 4 {
			continue
		}
		df, err := sc.docFreq(qt.term)
		if err != nil {
			return nil, err
		}
		if df > 0 {
			continue
		}
		fuzziness := 1
		if len([]rune(qt.term)) >= 7 {
			fuzziness = 2
		}
		dict, err := fz.FieldDictFuzzy(fBody, qt.term, fuzziness, "")
		if err != nil {
			return nil, err
		}
		best, bestCount, bestDist := "", 0.0, uint8(255)
		for {
			e, err := dict.Next()
			if err != nil || e == nil {
				break
			}
			// Fuzzy dictionary entries carry no counts (always 0): look
			// them up, or ties go to the first word alphabetically.
			n, err := sc.docFreq(e.Term)
			if err != nil {
				dict.Close()
				return nil, err
			}
			if e.EditDistance < bestDist || (e.EditDistance == bestDist && n > bestCount) {
				best, bestCount, bestDist = e.Term, n, e.EditDistance
			}
		}
		dict.Close()
		if best != "" {
			terms[i].term = best
		}
	}
	return terms, nil
}

// docFreq counts memories with term in any text field (body dominates).
func (sc *bm25Scorer) docFreq(term string) (float64, error) {
	if v, ok := sc.df[term]; ok {
		return v, nil
	}
	if sc.df == nil {
		sc.df = map[string]float64{}
	}
	tfr, err := sc.r.TermFieldReader(sc.ctx, []byte(term), fBody, false, false, false)
	if err != nil {
		return 0, err
	}
	c := float64(tfr.Count())
	tfr.Close()
	sc.df[term] = c
	return c, nil
}

func isNumber(s string) bool {
	return strings.Trim(s, "0123456789.,") == ""
}

// partialSort moves the k smallest elements (by less) to the front, in no
// particular order: quickselect.
func partialSort(n, k int, less func(i, j int) bool, swap func(i, j int)) {
	lo, hi := 0, n-1
	for lo < hi {
		// Median of three as pivot, moved to hi.
		mid := lo + (hi-lo)/2
		if less(mid, lo) {
			swap(mid, lo)
		}
		if less(hi, lo) {
			swap(hi, lo)
		}
		if less(mid, hi) {
			swap(mid, hi)
		}
		p := lo
		for i := lo; i < hi; i++ {
			if less(i, hi) {
				swap(i, p)
				p++
			}
		}
		swap(p, hi)
		switch {
		case p == k:
			return
		case p < k:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
}
