package app

import (
	"context"
	"testing"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
)

func TestConsolidate(t *testing.T) {
	body := "Wrap every error with fmt.Errorf and %w so callers can inspect the cause."
	keep := memory(schema.KindPattern, "Errors wrap with context", body, false)
	dup := memory(schema.KindPattern, "Errors wrap with context", body+" Always.", false)
	dup.URI = schema.URI{Scope: schema.ScopeProject, Path: "patterns/error-wrapping"}
	a, v := projectApp(t, keep, dup,
		memory(schema.KindDecision, "Use slog for logs", "Structured logs go through log/slog.", false))
	ctx := context.Background()

	rep, err := a.Consolidate(ctx, schema.ScopeProject, true)
	if err != nil || len(rep.Clusters) != 1 || len(rep.Promotions) != 0 || !rep.DryRun {
		t.Fatalf("dry run: %+v, %v", rep, err)
	}
	if c := rep.Clusters[0]; c.Commit != "" || len(c.Merged) != 1 || !v.Exists(dup.URI) {
		t.Fatalf("dry run cluster %+v; the duplicate exists: %v", c, v.Exists(dup.URI))
	}

	rep, err = a.Consolidate(ctx, schema.ScopeProject, false)
	if err != nil || len(rep.Clusters) != 1 || rep.Clusters[0].Commit == "" {
		t.Fatalf("consolidate: %+v, %v", rep, err)
	}
	if n := btoi(v.Exists(keep.URI)) + btoi(v.Exists(dup.URI)); n != 1 {
		t.Fatalf("%d of the two duplicates left, want 1", n)
	}
	if rep, err = a.Consolidate(ctx, "", false); err != nil || len(rep.Clusters) != 0 {
		t.Fatalf("second run: %+v, %v", rep, err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A promotion is reported when the plan acts on its own candidate, found
// by its sources: the policy drops repeats, so the plan can be shorter
// than the promotions and positions do not line up.
func TestPromoted(t *testing.T) {
	proms := []extract.Promotion{
		{Title: "tabs", Sources: []string{"a: mem://project/preferences/tabs", "b: mem://project/preferences/tabs"}},
		{Title: "tests", Sources: []string{"a: mem://project/preferences/tests", "c: mem://project/preferences/tests"}},
		{Title: "short", Sources: []string{"b: mem://project/preferences/short"}},
	}
	act := func(op extract.Op, p extract.Promotion) extract.Action {
		return extract.Action{Op: op, Candidate: extract.Candidate{Title: p.Title, Turns: p.Sources}}
	}
	plan := []extract.Action{act(extract.OpSkip, proms[1]), act(extract.OpCreate, proms[2])}
	got := promoted(proms, plan)
	if len(got) != 1 || got[0].Title != "short" {
		t.Fatalf("promoted %+v, want only the created one", got)
	}
	if got := promoted(proms, nil); got == nil || len(got) != 0 {
		t.Fatalf("empty plan: %#v, want an empty list", got)
	}
}
