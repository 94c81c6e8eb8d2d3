package index

// updateMerges is the bleve merge policy of the incremental updates
// (sync.go): a cache update is usually one memory written by a hook or a
// command, and bleve's default policy, whose smallest tier is 2000
// documents, merges the new one-document segment into the large segments
// of the last rebuild nearly every time: in a short-lived process that
// merge costs more CPU than the update itself. With a smallest tier of a
// few documents the small segments are merged among themselves, ten at a
// time, and the large ones only once the small ones add up to a tier.
func updateMerges() map[string]any {
	return map[string]any{
		"MaxSegmentsPerTier":   10,
		"MaxSegmentSize":       5000000,
		"TierGrowth":           10.0,
		"SegmentsPerMergeTask": 10,
		"FloorSegmentSize":     10,
		"ReclaimDeletesWeight": 2.0,
	}
}
