package index

import "context"

// CompactReport is what Compact freed.
type CompactReport struct {
	BytesBefore int64 `json:"bytes_before"`
	BytesAfter  int64 `json:"bytes_after"`
}

// Compact shrinks the cache: a fresh generation without the deleted
// documents incremental updates leave behind, old generations removed,
// and the access log folded into its summary.
func (ix *Index) Compact(ctx context.Context) (CompactReport, error) {
	rep := CompactReport{BytesBefore: ix.Bytes()}
	if err := ix.Rebuild(ctx, "compact"); err != nil {
		return rep, err
	}
	if err := ix.compactAccess(ctx); err != nil {
		return rep, err
	}
	rep.BytesAfter = ix.Bytes()
	return rep, nil
}

// Bytes is the size of the cache on disk.
func (ix *Index) Bytes() int64 { return dirSize(ix.Dir()) }
