package retrieve

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// GCOptions says when a memory has faded enough to archive.
type GCOptions struct {
	Threshold float64       // decayed score under which a memory has faded (default 0.05)
	For       time.Duration // how long it must have stayed under (default 90 days)
	Now       time.Time
}

// Faded is a memory gc would archive.
type Faded struct {
	URI     schema.URI `json:"uri"`
	Title   string     `json:"title"`
	Kind    string     `json:"kind"`
	Since   time.Time  `json:"faded_since"` // when its decayed score crossed the threshold
	Decayed float64    `json:"decayed_score"`
}

// FadedMemories lists memories whose decayed score (importance halved
// every half-life of their kind since they were last updated or used)
// has stayed under the threshold for the given time. Pinned memories,
// kinds exempt from decay, open threads and reminders, and what is
// already archived are never listed.
func FadedMemories(ctx context.Context, ixs []*index.Index, o GCOptions) ([]Faded, error) {
	if o.Threshold <= 0 {
		o.Threshold = 0.05
	}
	if o.For <= 0 {
		o.For = 90 * 24 * time.Hour
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	var out []Faded
	for _, ix := range ixs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st, err := ix.AccessStats()
		if err != nil {
			return nil, err
		}
		es, err := ix.Vault().List(vault.ListOptions{Parse: true})
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			m := e.Memory
			if m == nil || m.Pinned || m.Status == schema.StatusArchived || m.Status == schema.StatusOpen {
				continue
			}
			info, ok := m.Kind.Info()
			if !ok || info.DecayExempt || info.HalfLife <= 0 {
				continue
			}
			ref := m.Updated
			if last := st.Last[e.URI.String()]; last.After(ref) {
				ref = last // still being used
			}
			imp := m.EffectiveImportance()
			// Crossing time: imp × 0.5^(t/h) = threshold.
			cross := ref
			if imp > o.Threshold {
				cross = ref.Add(time.Duration(float64(info.HalfLife) * math.Log2(imp/o.Threshold)))
			}
			if o.Now.Sub(cross) < o.For {
				continue
			}
			age := o.Now.Sub(ref)
			out = append(out, Faded{URI: e.URI, Title: m.Title, Kind: string(m.Kind), Since: cross,
				Decayed: round(imp * math.Pow(0.5, float64(age)/float64(info.HalfLife)))})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI.String() < out[j].URI.String() })
	return out, nil
}
