package bench

import (
	"math"
	"sort"
)

// Scores are the metrics of one query, or their mean over many.
type Scores struct {
	N           int     `json:"n"`
	Recall5     float64 `json:"recall@5"`
	RecallAny5  float64 `json:"recall_any@5"`
	RecallAll5  float64 `json:"recall_all@5"`
	Recall10    float64 `json:"recall@10"`
	RecallAny10 float64 `json:"recall_any@10"`
	RecallAll10 float64 `json:"recall_all@10"`
	MRR         float64 `json:"mrr"`
	NDCG10      float64 `json:"ndcg@10"`
}

// score computes one query's metrics from its ranked ids and its gold.
// recall@k is the fraction of gold ids in the top k; recall_any@k is 1
// when at least one is, recall_all@k when all are; MRR is the reciprocal
// rank of the first gold id (0 when none is ranked); nDCG@10 uses binary
// relevance.
func score(ranked []string, gold []string) Scores {
	g := map[string]bool{}
	for _, id := range gold {
		g[id] = true
	}
	s := Scores{N: 1}
	if len(g) == 0 {
		return s
	}
	hitsAt := func(k int) int {
		n := 0
		for i := 0; i < k && i < len(ranked); i++ {
			if g[ranked[i]] {
				n++
			}
		}
		return n
	}
	at := func(k int) (recall, any, all float64) {
		h := hitsAt(k)
		recall = float64(h) / float64(len(g))
		if h > 0 {
			any = 1
		}
		if h == len(g) {
			all = 1
		}
		return
	}
	s.Recall5, s.RecallAny5, s.RecallAll5 = at(5)
	s.Recall10, s.RecallAny10, s.RecallAll10 = at(10)
	for i, id := range ranked {
		if g[id] {
			s.MRR = 1 / float64(i+1)
			break
		}
	}
	var dcg, idcg float64
	for i := 0; i < 10 && i < len(ranked); i++ {
		if g[ranked[i]] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := 0; i < 10 && i < len(g); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	s.NDCG10 = dcg / idcg
	return s
}

// mean averages per-query scores.
func mean(all []Scores) Scores {
	var m Scores
	for _, s := range all {
		m.N += s.N
		m.Recall5 += s.Recall5
		m.RecallAny5 += s.RecallAny5
		m.RecallAll5 += s.RecallAll5
		m.Recall10 += s.Recall10
		m.RecallAny10 += s.RecallAny10
		m.RecallAll10 += s.RecallAll10
		m.MRR += s.MRR
		m.NDCG10 += s.NDCG10
	}
	if n := float64(len(all)); n > 0 {
		m.Recall5 /= n
		m.RecallAny5 /= n
		m.RecallAll5 /= n
		m.Recall10 /= n
		m.RecallAny10 /= n
		m.RecallAll10 /= n
		m.MRR /= n
		m.NDCG10 /= n
	}
	return m
}

// percentile of sorted-in-place durations in ms.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[min(len(xs)-1, int(float64(len(xs))*p))]
}
