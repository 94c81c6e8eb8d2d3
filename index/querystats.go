package index

import "sort"

// coverageWords is how many of the query's most informative words the
// coverage signal looks at: a long prompt's rare words say what it is
// about, its other words could match anything.
const coverageWords = 5

// queryStats is what the first pass learns about each query word: its
// weight × IDF and which memories contain it, with the body's frequency.
type queryStats struct {
	terms []termStat
}

type termStat struct {
	wIDF float64
	body map[docKey]float64 // present: the memory contains the word in some field
}

func (qs *queryStats) add(qt queryTerm, idf float64, docs map[docKey]*docTF) {
	body := make(map[docKey]float64, len(docs))
	for k, d := range docs {
		body[k] = d.tf[bodyField]
	}
	qs.terms = append(qs.terms, termStat{wIDF: qt.weight * idf, body: body})
}

// sessionScore is BM25 of session g's memories read as one text: the
// query words' frequencies summed over its turns, normalized by the
// session's length.
func (qs *queryStats) sessionScore(nb *neighbourhood, g int32, m *manifest, key func(int32) (docKey, bool)) float64 {
	var length float64
	var keys []docKey
	for _, fi := range nb.groups[g] {
		length += float64(m.files[fi].lens[bodyField])
		if k, ok := key(fi); ok {
			keys = append(keys, k)
		}
	}
	norm := sessionK1 * (1 - sessionB + sessionB*length/nb.avgLen)
	var score float64
	for _, t := range qs.terms {
		var tf float64
		for _, k := range keys {
			tf += t.body[k]
		}
		if tf > 0 {
			score += t.wIDF * tf * (sessionK1 + 1) / (tf + norm)
		}
	}
	return score
}

// cover sets each hit's coverage: the share of the weight × IDF of the
// query's most informative words that the memory contains. A word no
// memory contains counts, with the highest IDF: a prompt about something
// the vault never heard of is not covered by a memory sharing its
// commonest word.
func (qs *queryStats) cover(hits []bm25Hit) {
	terms := append([]termStat(nil), qs.terms...)
	sort.SliceStable(terms, func(i, j int) bool { return terms[i].wIDF > terms[j].wIDF })
	terms = terms[:min(len(terms), coverageWords)]
	var mass float64
	for _, t := range terms {
		mass += t.wIDF
	}
	if mass == 0 {
		return
	}
	for i := range hits {
		var got float64
		for _, t := range terms {
			if _, ok := t.body[hits[i].key]; ok {
				got += t.wIDF
			}
		}
		hits[i].coverage = got / mass
	}
}
