package main

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/schema"
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

func (c *GcCmd) Run(g *Globals, env *Env) error {
	rep, err := env.App().GC(context.Background(), app.GCInput{Scope: schema.Scope(c.Scope), Threshold: c.Threshold,
		For: time.Duration(c.Days) * 24 * time.Hour, Later: c.Now, DryRun: c.DryRun, Cache: c.Cache})
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	c.render(env, rep)
	return nil
}

func (c *GcCmd) render(env *Env, rep *app.GCReport) {
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
		env.Printf("cache %s: %s → %s\n", rep.Compacted[i], human(cr.BytesBefore), human(cr.BytesAfter))
	}
	for i, pr := range rep.Git {
		env.Printf("git %s: %d loose objects packed\n", rep.Compacted[i], pr.LooseBefore-pr.LooseAfter)
	}
	if c.Cache && !c.DryRun {
		env.Printf("journal: %d old session file(s) removed\n", rep.Journal)
	}
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
