package index

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	index "github.com/blevesearch/bleve_index_api"
	"github.com/cairnmem/cairn/schema"
)

// A second ranking by the query's informative words alone is blended into
// the first, so a memory matching the rare words of a long question is not
// outranked by one matching many of its ordinary words.
const (
	informativeWeight = 0.5 // the second ranking's share, at the first's scale
	informativeShare  = 0.6 // a word is informative when its IDF reaches this share of the query's best
)

// Word associations are learned from the vault itself: the memories that
// contain a rare query word lend their rarest words to the query, so
// "adoption agencies" can meet "adopt a child" and "database" the vault's
// "Postgres". Read from the body's doc values, no file is opened.
const (
	assocWeight   = 0.3 // share of the query's weight given to associated words
	assocDocs     = 30  // memories read per query word
	assocPerWord  = 3   // associated words kept per query word
	assocMaxShare = 0.2 // a query word in more of the memories is too common to have associations
	// assocMaxWordShare bounds the associated words: rare ones carry the
	// topic, and their short postings keep the expanded query cheap.
	assocMaxWordShare = 0.05
)

// blendInformative adds the ranking by the query's informative words,
// scaled to the first ranking's range.
func (sc *bm25Scorer) blendInformative(terms []queryTerm, scores map[docKey]float64) error {
	info, err := sc.informative(terms)
	if err != nil || len(info) == 0 || len(info) == len(terms) {
		return err
	}
	second := map[docKey]float64{}
	if err := sc.score(info, second); err != nil {
		return err
	}
	var m1, m2 float64
	for _, v := range scores {
		m1 = max(m1, v)
	}
	for _, v := range second {
		m2 = max(m2, v)
	}
	if m2 == 0 {
		return nil
	}
	for k, v := range second {
		scores[k] += informativeWeight * v * m1 / m2
	}
	return nil
}

// informative keeps the query's words whose IDF is near its best.
func (sc *bm25Scorer) informative(terms []queryTerm) ([]queryTerm, error) {
	idfs := make([]float64, len(terms))
	var best float64
	for i, t := range terms {
		df, err := sc.docFreq(t.term)
		if err != nil {
			return nil, err
		}
		if df > 0 && !intentWords[t.term] {
			idfs[i] = sc.idf(df)
			best = max(best, idfs[i])
		}
	}
	var out []queryTerm
	for i, t := range terms {
		if idfs[i] > 0 && idfs[i] >= informativeShare*best {
			out = append(out, t)
		}
	}
	return out, nil
}

// associations returns, for each rare query word, the rarest words that
// occur with it in the vault's memories, weighted to assocWeight of the
// query as a whole.
func (sc *bm25Scorer) associations(terms []queryTerm) ([]queryTerm, error) {
	inQuery := map[string]bool{}
	var qsum float64
	for _, q := range terms {
		inQuery[q.term] = true
		qsum += q.weight
	}
	var dvr index.DocValueReader
	var out []queryTerm
	for _, q := range terms {
		df, err := sc.docFreq(q.term)
		if err != nil {
			return nil, err
		}
		if df == 0 || df > assocMaxShare*sc.n || intentWords[q.term] {
			continue
		}
		if dvr == nil {
			if dvr, err = sc.r.DocValueReader([]string{fBody}); err != nil {
				return nil, err
			}
		}
		assoc, err := sc.associated(dvr, q.term, inQuery)
		if err != nil {
			return nil, err
		}
		out = append(out, assoc...)
	}
	var sum float64
	for _, t := range out {
		sum += t.weight
	}
	for i := range out {
		out[i].weight = assocWeight * qsum * out[i].weight / sum
	}
	return out, nil
}

// associated ranks the words of the memories containing term by how many
// of them hold the word, times its IDF.
func (sc *bm25Scorer) associated(dvr index.DocValueReader, term string, skip map[string]bool) ([]queryTerm, error) {
	tfr, err := sc.r.TermFieldReader(sc.ctx, []byte(term), fBody, false, false, false)
	if err != nil {
		return nil, err
	}
	var ids []index.IndexInternalID
	for len(ids) < assocDocs {
		d, err := tfr.Next(nil)
		if err != nil || d == nil {
			break
		}
		ids = append(ids, append(index.IndexInternalID(nil), d.ID...))
	}
	tfr.Close()
	co := map[string]float64{}
	for _, id := range ids {
		seen := map[string]bool{}
		err := dvr.VisitDocValues(id, func(_ string, b []byte) {
			w := string(b)
			if len(w) < 3 || skip[w] || seen[w] || intentWords[w] || isNumber(w) {
				return
			}
			seen[w] = true
			co[w]++
		})
		if err != nil {
			return nil, err
		}
	}
	var cands []queryTerm
	for w, c := range co {
		df, err := sc.docFreq(w)
		if err != nil {
			return nil, err
		}
		if df == 0 || df > assocMaxWordShare*sc.n {
			continue
		}
		cands = append(cands, queryTerm{term: w, weight: c / float64(len(ids)) * sc.idf(df)})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].weight != cands[j].weight {
			return cands[i].weight > cands[j].weight
		}
		return cands[i].term < cands[j].term
	})
	return cands[:min(len(cands), assocPerWord)], nil
}

// memoryText is the searchable text of a memory file (its full-text
// fields), without the frontmatter: field names such as "kind" or
// "source" are in every file and would pass for shared vocabulary.
func (ix *Index) memoryText(id string) (string, error) {
	p := id + ".md"
	data, err := os.ReadFile(filepath.Join(ix.v.Root, filepath.FromSlash(p)))
	if err != nil {
		return "", err
	}
	m, err := schema.Parse(p, data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range textFields {
		b.WriteString(f.text(m))
		b.WriteByte('\n')
	}
	return b.String(), nil
}
