package app

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// projectApp is an App over a fresh project vault (and no user vault)
// holding the memories given (at their URI, else one from the title),
// written at t0.
func projectApp(t *testing.T, mems ...*schema.Memory) (*App, *vault.Vault) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	ctx := context.Background()
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	v.Now = func() time.Time { return t0 }
	for _, m := range mems {
		if m.URI.Path == "" {
			info, _ := m.Kind.Info()
			m.URI = schema.URI{Scope: schema.ScopeProject, Path: info.Dir + "/" + schema.Slugify(m.Title)}
		}
		if _, err := v.Create(ctx, m, vault.CommitMeta{}); err != nil {
			t.Fatal(err)
		}
	}
	a := New(Options{Dir: dir, Source: "cli", Now: func() time.Time { return t0 },
		Vaults: map[schema.Scope]*vault.Vault{schema.ScopeProject: v, schema.ScopeUser: nil}})
	return a, v
}

func memory(kind schema.Kind, title, body string, pinned bool) *schema.Memory {
	m := schema.New(kind, title, t0)
	m.Body, m.Pinned = body, pinned
	return m
}

func TestGC(t *testing.T) {
	a, v := projectApp(t,
		memory(schema.KindEvent, "Deployed v1.2 to staging", "Rolled out at noon.", false),
		memory(schema.KindEvent, "Release freeze announced", "No deploys this week.", true),
		memory(schema.KindConstraint, "Never deploy on Fridays", "Rollbacks need people.", false))
	ctx := context.Background()
	in := GCInput{Threshold: 0.05, For: 90 * 24 * time.Hour}

	rep, err := a.GC(ctx, in)
	if err != nil || len(rep.Archived) != 0 {
		t.Fatalf("now: %+v, %v; want nothing faded", rep, err)
	}

	in.Later, in.DryRun = 4400*time.Hour, true
	rep, err = a.GC(ctx, in)
	if err != nil || len(rep.Archived) != 1 || rep.Archived[0].URI.Path != "events/deployed-v1-2-to-staging" || rep.Archived[0].To != "" || len(rep.Commits) != 0 {
		t.Fatalf("dry run: %+v, %v", rep, err)
	}
	if !v.Exists(rep.Archived[0].URI) {
		t.Fatal("a dry run moved the memory")
	}

	in.DryRun, in.Cache = false, true
	rep, err = a.GC(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Archived) != 1 || rep.Archived[0].To != "mem://project/archive/events/deployed-v1-2-to-staging" || len(rep.Commits) != 1 {
		t.Fatalf("archive: %+v", rep)
	}
	if len(rep.Cache) != 1 || len(rep.Git) != 1 || len(rep.Compacted) != 1 || rep.Compacted[0] != schema.ScopeProject {
		t.Fatalf("compaction: %+v", rep)
	}
	out, err := exec.Command("git", "-C", v.Root, "log", "-1", "--format=%B").Output()
	if err != nil {
		t.Fatal(err)
	}
	msg := string(out)
	if !strings.HasPrefix(msg, "gc: archive 1 faded memories") ||
		!strings.Contains(msg, "mem://project/events/deployed-v1-2-to-staging (event): faded since ") || strings.Contains(msg, "release-freeze") {
		t.Fatalf("commit message:\n%s", msg)
	}
}

func TestArchiveBody(t *testing.T) {
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	all := []Archived{{}, {}, {}}
	all[0].URI, all[0].Kind, all[0].Since = schema.URI{Scope: schema.ScopeProject, Path: "events/a"}, "event", day
	all[1].URI, all[1].Kind, all[1].Since = schema.URI{Scope: schema.ScopeUser, Path: "events/b"}, "event", day
	all[2].URI, all[2].Kind, all[2].Since = schema.URI{Scope: schema.ScopeProject, Path: "cases/c"}, "case", day.AddDate(0, 1, 0)
	got := archiveBody(all, []int{0, 2})
	want := "mem://project/events/a (event): faded since 2026-03-01\nmem://project/cases/c (case): faded since 2026-04-01"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
