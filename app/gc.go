package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// GCInput says what gc archives and whether it compacts.
type GCInput struct {
	Scope schema.Scope
	// Threshold is the decayed score under which a memory has faded.
	Threshold float64
	// For is how long a memory must have stayed faded.
	For time.Duration
	// Later pretends it is this much later than the App's clock (tests).
	Later time.Duration
	// DryRun reports what would be archived and changes nothing.
	DryRun bool
	// Cache also compacts the search caches, prunes the capture journal
	// and packs loose git objects.
	Cache bool
}

// GCReport is what gc archived and compacted.
type GCReport struct {
	Archived []Archived            `json:"archived"`
	Commits  []string              `json:"commits,omitempty"`
	Cache    []index.CompactReport `json:"cache,omitempty"`
	Journal  int                   `json:"journal_files_removed,omitempty"`
	Git      []*vault.PackReport   `json:"git,omitempty"`
	DryRun   bool                  `json:"dry_run"`
	// Compacted is the scope of each vault Cache and Git report on, in
	// their order.
	Compacted []schema.Scope `json:"-"`
}

// Archived is a faded memory and where gc moved it ("" on a dry run).
type Archived struct {
	retrieve.Faded
	To string `json:"to,omitempty"`
}

// GC archives the memories that stayed faded long enough, one commit
// per vault, and with Cache compacts what grows with use.
func (a *App) GC(ctx context.Context, in GCInput) (*GCReport, error) {
	ixs, err := a.Indexes(in.Scope)
	if err != nil {
		return nil, err
	}
	faded, err := retrieve.FadedMemories(ctx, ixs, retrieve.GCOptions{Threshold: in.Threshold, For: in.For, Now: a.now().Add(in.Later)})
	if err != nil {
		return nil, err
	}
	rep := &GCReport{DryRun: in.DryRun, Archived: []Archived{}}
	for _, f := range faded {
		rep.Archived = append(rep.Archived, Archived{Faded: f})
	}
	if in.DryRun {
		return rep, nil
	}
	for _, ix := range ixs {
		if err := a.archive(ctx, ix.Vault(), rep); err != nil {
			return nil, err
		}
	}
	if in.Cache {
		for _, ix := range ixs {
			if err := compact(ctx, ix, rep); err != nil {
				return nil, err
			}
		}
	}
	return rep, nil
}

// archive moves the faded memories of v under archive/ in one commit
// whose body lists them, and records where each went.
func (a *App) archive(ctx context.Context, v *vault.Vault, rep *GCReport) error {
	var uris []schema.URI
	var idx []int
	for i, f := range rep.Archived {
		if f.URI.Scope == v.Scope {
			uris, idx = append(uris, f.URI), append(idx, i)
		}
	}
	if len(uris) == 0 {
		return nil
	}
	meta := a.Meta("archive", "")
	meta.Subject = fmt.Sprintf("gc: archive %d faded memories", len(uris))
	meta.Body = archiveBody(rep.Archived, idx)
	res, moved, err := v.Archive(ctx, uris, meta)
	if err != nil {
		return err
	}
	for j, u := range moved {
		rep.Archived[idx[j]].To = u.String()
	}
	if res.Committed() {
		rep.Commits = append(rep.Commits, res.Commit)
	}
	return nil
}

// archiveBody is the commit body of an archive: one line per memory.
func archiveBody(all []Archived, idx []int) string {
	var b strings.Builder
	for _, i := range idx {
		f := all[i]
		fmt.Fprintf(&b, "%s (%s): faded since %s\n", f.URI, f.Kind, f.Since.Format("2006-01-02"))
	}
	return strings.TrimSpace(b.String())
}

// compact gives ix a fresh cache generation, prunes the vault's capture
// journal to its configured age and size, and packs loose git objects.
func compact(ctx context.Context, ix *index.Index, rep *GCReport) error {
	v := ix.Vault()
	cr, err := ix.Compact(ctx)
	if err != nil {
		return err
	}
	rep.Cache = append(rep.Cache, cr)
	cfg := v.Config.Capture
	n, err := extract.PruneJournal(v.Root, time.Duration(cfg.JournalDays)*24*time.Hour, int64(cfg.JournalMB)<<20)
	if err != nil {
		return err
	}
	rep.Journal += n
	pr, err := v.PackObjects(ctx)
	if err != nil {
		return err
	}
	rep.Git = append(rep.Git, pr)
	rep.Compacted = append(rep.Compacted, v.Scope)
	return nil
}
