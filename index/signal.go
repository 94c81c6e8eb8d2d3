package index

// SignalName names a ranking signal. Index computes signals; retrieve
// weighs and fuses them into one ranking.
type SignalName string

// Signals.
const (
	// SignalText is the full-text score: BM25F over title, summary, tags,
	// triggers and body, with the query's expansions and the memory's
	// session context.
	SignalText SignalName = "bm25"
	// SignalVector is the cosine similarity of the memory's embedding and
	// the query's.
	SignalVector SignalName = "vector"
)

// Signal is one ranking signal's view of a hit.
type Signal struct {
	Name SignalName `json:"name"`
	// Source names what produced a vector signal: the embedder.
	Source       string  `json:"source,omitempty"`
	Rank         int     `json:"rank"`         // 1-based, across every vault searched
	Score        float64 `json:"score"`        // text score or cosine similarity
	Contribution float64 `json:"contribution"` // share of the fused score
	// Coverage is, for the text signal, the share of the query's most
	// informative words (by IDF) that the memory contains: 0..1, whatever
	// the vault's size.
	Coverage float64 `json:"coverage,omitempty"`
}

// Label is the signal's name with its source, for people.
func (s Signal) Label() string {
	if s.Source != "" {
		return string(s.Name) + ":" + s.Source
	}
	return string(s.Name)
}
