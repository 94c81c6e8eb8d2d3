package bench

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Each metric checked on tiny hand-made cases.
func TestScore(t *testing.T) {
	// Gold {a, b}; ranking puts a at 1 and b at 7.
	s := score([]string{"a", "x", "y", "z", "w", "v", "b", "u"}, []string{"a", "b"})
	if !near(s.Recall5, 0.5) || s.RecallAny5 != 1 || s.RecallAll5 != 0 {
		t.Errorf("@5: %+v", s)
	}
	if !near(s.Recall10, 1) || s.RecallAny10 != 1 || s.RecallAll10 != 1 {
		t.Errorf("@10: %+v", s)
	}
	if !near(s.MRR, 1) {
		t.Errorf("MRR %v", s.MRR)
	}
	// DCG = 1/log2(2) + 1/log2(8) = 1 + 1/3; IDCG = 1 + 1/log2(3).
	if want := (1 + 1.0/3) / (1 + 1/math.Log2(3)); !near(s.NDCG10, want) {
		t.Errorf("nDCG %v, want %v", s.NDCG10, want)
	}
	// First gold at rank 4.
	s = score([]string{"x", "y", "z", "g"}, []string{"g"})
	if !near(s.MRR, 0.25) || s.RecallAll5 != 1 || !near(s.NDCG10, 1/math.Log2(5)) {
		t.Errorf("rank 4: %+v", s)
	}
	// Gold never ranked.
	s = score([]string{"x"}, []string{"g"})
	if s.MRR != 0 || s.Recall10 != 0 || s.NDCG10 != 0 || s.RecallAny10 != 0 {
		t.Errorf("missing: %+v", s)
	}
	// Mean of the two.
	m := mean([]Scores{score([]string{"g"}, []string{"g"}), score([]string{"x"}, []string{"g"})})
	if m.N != 2 || !near(m.MRR, 0.5) || !near(m.RecallAll5, 0.5) {
		t.Errorf("mean: %+v", m)
	}
}
