package extract

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Consolidation is what consolidating one cluster of near duplicates did.
type Consolidation struct {
	Policy  string   `json:"policy"`
	Kept    string   `json:"kept"`
	Merged  []string `json:"merged,omitempty"`     // folded in and removed
	Removed []string `json:"removed,omitempty"`    // exact repeats removed
	Super   []string `json:"superseded,omitempty"` // marked superseded by Kept
	Commit  string   `json:"commit,omitempty"`
}

// Consolidate folds a cluster of near-duplicate memories of one kind into
// one, by the kind's policy, in one commit whose trailers list the
// sources: mergeable and closable kinds merge into the oldest file;
// decisions and constraints keep the newest current and mark the others
// superseded; immutable kinds keep the newest and drop the repeats.
func Consolidate(ctx context.Context, v *vault.Vault, uris []schema.URI, meta vault.CommitMeta, now time.Time, dryRun bool) (*Consolidation, error) {
	var ms []*schema.Memory
	for _, u := range uris {
		m, err := v.Read(u)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	if len(ms) < 2 {
		return nil, fmt.Errorf("a cluster needs two memories or more")
	}
	info, _ := ms[0].Kind.Info()
	res := &Consolidation{Policy: string(info.Policy)}
	var keep *schema.Memory
	var rest []*schema.Memory
	switch info.Policy {
	case schema.PolicyMergeable, schema.PolicyClosable:
		sort.Slice(ms, func(i, j int) bool { return ms[i].Created.Before(ms[j].Created) })
		keep, rest = ms[0].Clone(), ms[1:]
		for _, m := range rest {
			if !contains(keep.Body, m.Body) {
				keep.Body = strings.TrimSpace(keep.Body + "\n\n" + m.Body)
			}
			keep.Tags = unionTags(keep.Tags, m.Tags)
			if m.Importance != nil && (keep.Importance == nil || *m.Importance > *keep.Importance) {
				v := *m.Importance
				keep.Importance = &v
			}
			if m.Status == schema.StatusDone {
				keep.Status = schema.StatusDone
			}
			res.Merged = append(res.Merged, m.URI.String())
		}
		keep.Updated = schema.Timestamp(now)
	case schema.PolicySupersedable:
		sort.Slice(ms, func(i, j int) bool { return ms[i].Updated.After(ms[j].Updated) })
		keep, rest = ms[0].Clone(), ms[1:]
		for _, m := range rest {
			keep.Supersedes = unionTags(keep.Supersedes, []string{m.URI.String()})
			res.Super = append(res.Super, m.URI.String())
		}
	default:
		sort.Slice(ms, func(i, j int) bool { return ms[i].Updated.After(ms[j].Updated) })
		keep, rest = ms[0].Clone(), ms[1:]
		for _, m := range rest {
			res.Removed = append(res.Removed, m.URI.String())
		}
	}
	res.Kept = keep.URI.String()
	if dryRun {
		return res, nil
	}
	meta.Verb = "consolidate"
	meta.Subject = fmt.Sprintf("consolidate: %d near duplicates into %s", len(ms), keep.URI)
	for _, m := range rest {
		meta.Trailers = append(meta.Trailers, [2]string{"Cairn-Consolidated-From", m.URI.String()})
	}
	cr, err := v.Update(ctx, meta, func(tx *vault.Tx) error {
		if err := tx.Put(keep); err != nil {
			return err
		}
		for _, m := range rest {
			if info.Policy == schema.PolicySupersedable {
				old := m.Clone()
				old.Status, old.SupersededBy = schema.StatusSuperseded, keep.URI.String()
				if err := tx.Put(old); err != nil {
					return err
				}
				continue
			}
			if err := tx.Delete(m.URI); err != nil {
				return err
			}
		}
		return nil
	})
	res.Commit = cr.Commit
	return res, err
}
