package retrieve

import (
	"context"
	"sync"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/index"
)

// Retriever ranks memories across the indexes of one or more vaults.
type Retriever struct {
	ixs []*index.Index
	cfg config.Retrieve
	// Now is the clock for recency and time windows; the benchmark sets it
	// to each question's date.
	Now func() time.Time

	staleOnce sync.Once
	staleURIs map[string][]string
	// reviewRequired keeps captured memories out of packs until a person
	// kept them (capture.review: required in the project vault).
	reviewRequired bool
}

// New returns a retriever over ixs; the first index's vault configuration
// supplies the weights.
func New(ixs []*index.Index) *Retriever {
	cfg := config.Default().Retrieve
	review := false
	if len(ixs) > 0 {
		cfg = ixs[0].Vault().Config.Retrieve
		review = ixs[0].Vault().Config.Capture.ReviewRequired()
	}
	return &Retriever{ixs: ixs, cfg: cfg, Now: time.Now, reviewRequired: review}
}

// Indexes returns the indexes searched.
func (r *Retriever) Indexes() []*index.Index { return r.ixs }

// Config returns the ranking configuration.
func (r *Retriever) Config() config.Retrieve { return r.cfg }

// views syncs every index and runs fn with a view of each, so several
// queries share one sync and one consistent state.
func (r *Retriever) views(ctx context.Context, fn func([]*index.View) error) error {
	var vs []*index.View
	var open func(i int) error
	open = func(i int) error {
		if i == len(r.ixs) {
			return fn(vs)
		}
		return r.ixs[i].View(ctx, func(v *index.View) error {
			// View calls again after rebuilding a damaged cache: the
			// views of an earlier attempt are closed.
			vs = append(vs[:i], v)
			return open(i + 1)
		})
	}
	return open(0)
}

// stats reads every vault's access statistics, merged.
func (r *Retriever) stats() *index.AccessStats {
	all := &index.AccessStats{Count: map[string]int{}, Last: map[string]time.Time{}}
	for _, ix := range r.ixs {
		st, err := ix.AccessStats()
		if err != nil {
			continue // statistics are a hint; never fail a read over them
		}
		for u, n := range st.Count {
			all.Count[u] += n
		}
		for u, t := range st.Last {
			if t.After(all.Last[u]) {
				all.Last[u] = t
			}
		}
		all.Log = append(all.Log, st.Log...)
	}
	return all
}
