package main

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

// GcCmd archives faded memories and compacts the cache and journal.
type GcCmd struct {
	DryRun    bool          `help:"Show what would be archived; change nothing."`
	Threshold float64       `default:"0.05" help:"Decayed score under which a memory has faded."`
	Days      int           `default:"90" help:"Days a memory must have stayed faded before it is archived."`
	Cache     bool          `help:"Also compact the search cache (fresh generation, access log folded), pack loose git objects and enforce journal retention."`
	Scope     string        `help:"Only the project or the user vault (default: both)." enum:"project,user," default:""`
	Now       time.Duration `hidden:"" help:"Pretend it is this much later (tests)."`
}

// Help explains archiving.
func (c *GcCmd) Help() string {
	return `A memory's decayed score is its importance halved every half-life of its kind
(decisions a year, cases 120 days, sessions 30 days, ...) since it was last
updated or shown to an agent. One that stayed under --threshold for --days is
moved under archive/ with status archived, in one commit with a report: it
leaves searches and packs, stays readable, and stays in history. Pinned
memories, kinds exempt from decay (constraints, preferences, profile,
reminders) and open threads are never archived.`
}

type gcReport struct {
	Archived []archived             `json:"archived"`
	Commits  []string               `json:"commits,omitempty"`
	Cache    []index.CompactReport  `json:"cache,omitempty"`
	Journal  int                    `json:"journal_files_removed,omitempty"`
	Git      []*vault.PackReport    `json:"git,omitempty"`
	DryRun   bool                   `json:"dry_run"`
	Faded    []retrieve.Faded       `json:"-"`
	Scope    map[schema.Scope][]int `json:"-"`
}

type archived struct {
	retrieve.Faded
	To string `json:"to,omitempty"`
}

func (c *GcCmd) Run(g *Globals, env *Env) error {
	ctx := context.Background()
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	now := time.Now().Add(c.Now)
	faded, err := retrieve.FadedMemories(ctx, ixs, retrieve.GCOptions{Threshold: c.Threshold, For: time.Duration(c.Days) * 24 * time.Hour, Now: now})
	if err != nil {
		return err
	}
	rep := gcReport{DryRun: c.DryRun, Archived: []archived{}}
	for _, f := range faded {
		rep.Archived = append(rep.Archived, archived{Faded: f})
	}
	if !c.DryRun && len(faded) > 0 {
		for _, ix := range ixs {
			v := ix.Vault()
			var uris []schema.URI
			var idx []int
			for i, f := range faded {
				if f.URI.Scope == v.Scope {
					uris, idx = append(uris, f.URI), append(idx, i)
				}
			}
			if len(uris) == 0 {
				continue
			}
			meta := env.Meta(v, "archive")
			meta.Subject = fmt.Sprintf("gc: archive %d faded memories", len(uris))
			var b strings.Builder
			for _, f := range faded {
				if f.URI.Scope == v.Scope {
					fmt.Fprintf(&b, "%s (%s): faded since %s\n", f.URI, f.Kind, f.Since.Format("2006-01-02"))
				}
			}
			meta.Body = strings.TrimSpace(b.String())
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
		}
	}
	if c.Cache && !c.DryRun {
		for _, ix := range ixs {
			cr, err := ix.Compact(ctx)
			if err != nil {
				return err
			}
			rep.Cache = append(rep.Cache, cr)
			cfg := ix.Vault().Config.Capture
			n, err := extract.PruneJournal(ix.Vault().Root, time.Duration(cfg.JournalDays)*24*time.Hour, int64(cfg.JournalMB)<<20)
			if err != nil {
				return err
			}
			rep.Journal += n
			pr, err := ix.Vault().PackObjects(ctx)
			if err != nil {
				return err
			}
			rep.Git = append(rep.Git, pr)
		}
	}
	if g.JSON {
		return env.JSON(rep)
	}
	verb := "archived"
	if c.DryRun {
		verb = "would archive"
	}
	if len(rep.Archived) == 0 {
		env.Printf("Nothing has faded enough to archive (threshold %.2f for %d days).\n", c.Threshold, c.Days)
	}
	for _, a := range rep.Archived {
		env.Printf("%s %s (%s, faded since %s)", verb, a.URI, a.Kind, a.Since.Format("2006-01-02"))
		if a.To != "" {
			env.Printf(" → %s", a.To)
		}
		env.Printf("\n")
	}
	for _, h := range rep.Commits {
		env.Printf("committed %.8s\n", h)
	}
	for i, cr := range rep.Cache {
		env.Printf("cache %s: %s → %s\n", ixs[i].Vault().Scope, human(cr.BytesBefore), human(cr.BytesAfter))
	}
	for i, pr := range rep.Git {
		env.Printf("git %s: %d loose objects packed\n", ixs[i].Vault().Scope, pr.LooseBefore-pr.LooseAfter)
	}
	if c.Cache && !c.DryRun {
		env.Printf("journal: %d old session file(s) removed\n", rep.Journal)
	}
	return nil
}

func human(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
