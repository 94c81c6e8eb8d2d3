package retrieve

import (
	"sort"

	"github.com/cairnmem/cairn/index"
)

// fuse joins the vaults' candidate lists into one list of memories, each
// with every signal that found it. A signal's lists are ranked together by
// raw score, which one model gives on one query whatever the vault; the
// weighing of signals is the scorer's (relevance in score.go). The mode is
// what was available: text without vector hits, vector without text hits.
func fuse(cs []*index.Candidates) ([]index.Hit, index.Mode) {
	var text, vec []index.Hit
	for _, c := range cs {
		text = append(text, c.Text...)
		vec = append(vec, c.Vector...)
	}
	byScore := func(hs []index.Hit) {
		sort.SliceStable(hs, func(i, j int) bool {
			if a, b := hs[i].Signals[0].Score, hs[j].Signals[0].Score; a != b {
				return a > b
			}
			if !hs[i].Updated.Equal(hs[j].Updated) {
				return hs[i].Updated.After(hs[j].Updated)
			}
			return hs[i].URI.String() < hs[j].URI.String()
		})
	}
	byScore(text)
	byScore(vec)
	mode := index.ModeHybrid
	switch {
	case len(vec) == 0:
		mode = index.ModeText
	case len(text) == 0:
		mode = index.ModeVector
	}
	at := map[string]int{}
	var out []index.Hit
	for _, list := range [][]index.Hit{text, vec} {
		for rank, h := range list {
			sig := h.Signals[0]
			sig.Rank = rank + 1
			key := h.URI.String()
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				hit := h
				hit.Signals = nil
				out = append(out, hit)
			}
			out[i].Signals = append(out[i].Signals, sig)
		}
	}
	return out, mode
}
