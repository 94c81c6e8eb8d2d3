package retrieve

import (
	"context"
	"fmt"
	"sort"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// lshBands splits a fingerprint into bands; two memories land in the same
// bucket when one band matches, so near duplicates (estimated word-pair
// overlap ≥ 0.8) meet without comparing every pair.
const lshBands, lshRows = 8, 4

// DuplicateClusters groups the near-duplicate memories of each vault (same
// kind, fingerprints near). Archived and superseded memories are left
// alone.
func DuplicateClusters(ctx context.Context, ixs []*index.Index) ([][]index.Doc, error) {
	var out [][]index.Doc
	for _, ix := range ixs {
		err := ix.View(ctx, func(v *index.View) error {
			docs, err := v.List(index.Query{Limit: 1 << 30})
			if err != nil {
				return err
			}
			out = append(out, cluster(docs)...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out, nil
}

// settled memories are out of consolidation: archived, or already
// superseded by another.
func settled(d index.Doc) bool {
	return d.Status == schema.StatusArchived || d.Status == schema.StatusSuperseded
}

func cluster(docs []index.Doc) [][]index.Doc {
	prints := make([]index.Fingerprint, len(docs))
	parent := make([]int, len(docs))
	for i := range docs {
		parent[i] = i
		prints[i] = index.ParseFingerprint(docs[i].Fingerprint)
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	buckets := map[string][]int{}
	for i, d := range docs {
		if len(prints[i]) == 0 || settled(d) {
			continue
		}
		for b := 0; b < lshBands; b++ {
			key := fmt.Sprint(d.Kind, b, prints[i][b*lshRows:(b+1)*lshRows])
			for _, j := range buckets[key] {
				if find(i) != find(j) && prints[i].Near(prints[j]) {
					parent[find(i)] = find(j)
				}
			}
			buckets[key] = append(buckets[key], i)
		}
	}
	groups := map[int][]index.Doc{}
	for i := range docs {
		if len(prints[i]) > 0 && !settled(docs[i]) {
			groups[find(i)] = append(groups[find(i)], docs[i])
		}
	}
	var out [][]index.Doc
	for _, g := range groups {
		if len(g) > 1 {
			sort.Slice(g, func(a, b int) bool { return g[a].URI.String() < g[b].URI.String() })
			out = append(out, g)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0].URI.String() < out[b][0].URI.String() })
	return out
}
