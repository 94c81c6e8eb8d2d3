package index

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// updatePlan is the bleve merge policy of the incremental updates
// (sync.go): a cache update is usually one memory written by a hook or a
// command. bleve's default policy, whose smallest tier is 2000 documents,
// planned to merge the new one-document segment into the large segments
// of the last rebuild nearly every time; in a short-lived process that
// merge cost more CPU than the update, and was often cut short when the
// index closed, so segments piled up anyway. Here the smallest tier is
// 10 documents: small segments are merged among themselves, five at a
// time, and the large ones only once the small ones add up to a tier
// (at 10k memories at most about 16 segments).
var updatePlan = mergeplan.MergePlanOptions{
	MaxSegmentsPerTier:   5,
	MaxSegmentSize:       5000000,
	TierGrowth:           10,
	SegmentsPerMergeTask: 5,
	FloorSegmentSize:     10,
	ReclaimDeletesWeight: 2,
}

// updateConfig opens an index for an update with updatePlan.
func updateConfig() map[string]any {
	p := updatePlan
	return map[string]any{"scorchMergePlanOptions": map[string]any{
		"MaxSegmentsPerTier":   p.MaxSegmentsPerTier,
		"MaxSegmentSize":       p.MaxSegmentSize,
		"TierGrowth":           p.TierGrowth,
		"SegmentsPerMergeTask": p.SegmentsPerMergeTask,
		"FloorSegmentSize":     p.FloorSegmentSize,
		"ReclaimDeletesWeight": p.ReclaimDeletesWeight,
	}}
}

// mergeNow runs the merges updatePlan calls for before the index closes,
// so the segment count stays bounded however short-lived the writers are.
func mergeNow(ctx context.Context, bi bleve.Index) error {
	adv, err := bi.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	p := updatePlan
	if err := s.ForceMerge(ctx, &p); err != nil {
		return fmt.Errorf("merge index segments: %w", err)
	}
	return nil
}
