package retrieve

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// Part is one signal's contribution to an item's score, for --explain.
type Part struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`  // the signal itself, 0..1 where it applies
	Effect float64 `json:"effect"` // what it added to (or multiplied into) the score
}

// Item is a ranked memory with the reasons for its rank.
type Item struct {
	index.Doc
	Scope   schema.Scope   `json:"scope"`
	Score   float64        `json:"score"`
	Parts   []Part         `json:"parts,omitempty"`
	Signals []index.Signal `json:"signals,omitempty"`
	// Note says what retrieval did to the item: the superseded memory it
	// replaces, the duplicates it stands for.
	Note string `json:"note,omitempty"`
}

// scorer holds what scoring needs besides the candidates.
type scorer struct {
	cfg     config.Retrieve
	now     time.Time
	time    TimeIntent
	access  *index.AccessStats
	shown   map[string]time.Time // this session's shown URIs
	safe    bool
	textMax float64
	vecMax  float64
	listing bool // no query text: every candidate is equally relevant
	stale   map[string][]string
}

// relevance fuses the text and vector scores, each divided by the best
// score of its list, so the gap between a strong and a weak match
// survives (rank fusion would flatten it), then weighted.
func (s *scorer) relevance(it *Item) (float64, []Part) {
	w := s.cfg.Weights
	if s.listing {
		return 1, nil
	}
	total := w.Text + w.Vector
	if total == 0 {
		return 0, nil
	}
	var text, vec float64
	for i, sig := range it.Signals {
		switch {
		case sig.Name == index.SignalText && s.textMax > 0:
			text = sig.Score / s.textMax
			it.Signals[i].Contribution = w.Text * text / total
		case sig.Name == index.SignalVector && s.vecMax > 0:
			vec = sig.Score / s.vecMax
			it.Signals[i].Contribution = w.Vector * vec / total
		}
	}
	rel := (w.Text*text + w.Vector*vec) / total
	return rel, []Part{{Name: "text", Value: text, Effect: w.Text * text / total}, {Name: "vector", Value: vec, Effect: w.Vector * vec / total}}
}

// recency is exponential decay by the kind's half-life from the later of
// the last update and the last access; decay-exempt kinds stay at 1.
func (s *scorer) recency(it *Item) float64 {
	info, ok := it.Kind.Info()
	if !ok || info.DecayExempt {
		return 1
	}
	t := it.Updated
	if a := s.access.Last[it.URI.String()]; a.After(t) {
		t = a
	}
	if t.IsZero() {
		return 0.5
	}
	age := s.now.Sub(t)
	if age < 0 {
		age = 0
	}
	return math.Pow(0.5, float64(age)/float64(info.HalfLife))
}

// accessValue saturates: twenty uses count as much as a hundred.
func (s *scorer) accessValue(it *Item) float64 {
	n := s.access.Count[it.URI.String()]
	return math.Min(1, math.Log1p(float64(n))/math.Log1p(20))
}

func (s *scorer) kindValue(it *Item) float64 {
	if v, ok := s.cfg.KindWeights[string(it.Kind)]; ok {
		return v
	}
	return 0.5
}

// when is the time a memory speaks about: when it was created.
func when(d index.Doc) time.Time {
	if !d.Created.IsZero() {
		return d.Created
	}
	return d.Updated
}

// penalty multiplies in the penalties of the item's tags; excluded reports
// a tag that --safe leaves out.
func (s *scorer) penalty(it *Item) (float64, bool) {
	p := 1.0
	for _, t := range it.Tags {
		t = strings.ToLower(t)
		if s.safe {
			for _, x := range s.cfg.SafeExclude {
				if strings.EqualFold(t, x) {
					return 0, true
				}
			}
		}
		if v, ok := s.cfg.TagPenalties[t]; ok {
			p *= v
		}
	}
	return p, false
}

// score computes an item's score from its relevance and the other signals.
// The boosts scale relevance rather than add to it, so no amount of
// recency or importance lifts an irrelevant memory over a relevant one.
func (s *scorer) score(it *Item) bool {
	w := s.cfg.Weights
	rel, parts := s.relevance(it)
	rec, imp, acc, kind := s.recency(it), it.Importance, s.accessValue(it), s.kindValue(it)
	boost := 1 + w.Recency*rec + w.Importance*imp + w.Access*acc + w.Kind*kind
	parts = append(parts,
		Part{Name: "recency", Value: rec, Effect: w.Recency * rec},
		Part{Name: "importance", Value: imp, Effect: w.Importance * imp},
		Part{Name: "access", Value: acc, Effect: w.Access * acc},
		Part{Name: "kind", Value: kind, Effect: w.Kind * kind})
	if s.time.Window != nil {
		fit := s.time.Window.Fit(when(it.Doc))
		boost += w.Temporal * fit
		parts = append(parts, Part{Name: "time window", Value: fit, Effect: w.Temporal * fit})
	}
	score := rel * boost
	pen, excluded := s.penalty(it)
	if excluded {
		return false
	}
	if pen != 1 {
		score *= pen
		parts = append(parts, Part{Name: "tag penalty", Value: pen, Effect: pen})
	}
	if files := s.stale[it.URI.String()]; len(files) > 0 {
		score *= staleFactor
		parts = append(parts, Part{Name: "possibly stale", Value: float64(len(files)), Effect: staleFactor})
	}
	if _, seen := s.shown[it.URI.String()]; seen {
		score *= w.Novelty
		parts = append(parts, Part{Name: "already shown", Value: 1, Effect: w.Novelty})
	}
	it.Score, it.Parts = score, parts
	return true
}

// orderBoost nudges items by age when the query asks for the first or the
// latest: the relative position among the candidates decides.
func (s *scorer) orderBoost(items []*Item) {
	if s.time.Order == OrderNone || len(items) < 2 {
		return
	}
	var lo, hi time.Time
	for _, it := range items {
		t := when(it.Doc)
		if t.IsZero() {
			continue
		}
		if lo.IsZero() || t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	span := hi.Sub(lo)
	if span <= 0 {
		return
	}
	for _, it := range items {
		t := when(it.Doc)
		if t.IsZero() {
			continue
		}
		pos := float64(t.Sub(lo)) / float64(span) // 0 oldest, 1 newest
		if s.time.Order == OrderEarliest {
			pos = 1 - pos
		}
		f := 1 + 0.3*pos
		it.Score *= f
		it.Parts = append(it.Parts, Part{Name: "order", Value: pos, Effect: f})
	}
}

// sortItems orders by score, then newer first, then URI: equal inputs
// always give the same order.
func sortItems(items []*Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		return a.URI.String() < b.URI.String()
	})
}
