package retrieve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

func startPack(t *testing.T, r *retrieve.Retriever, session string) *retrieve.Pack {
	t.Helper()
	p, err := r.Pack(ctx, retrieve.PackRequest{SessionStart: true, Session: session, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWarmedPackIsWhatANewSessionGets(t *testing.T) {
	f := packFixture(t)
	fresh := startPack(t, f.retriever(), "")
	if fresh.Prebuilt {
		t.Fatal("the first pack cannot come from the cache")
	}
	if err := f.retriever().Warm(ctx); err != nil {
		t.Fatal(err)
	}
	got := startPack(t, f.retriever(), "s-new")
	if !got.Prebuilt {
		t.Fatal("a new session did not get the warmed pack")
	}
	if got.Markdown != fresh.Markdown || got.Tokens != fresh.Tokens || got.Session != "s-new" {
		t.Fatalf("warmed pack differs from a fresh one:\n%s\n---\n%s", got.Markdown, fresh.Markdown)
	}
}

func TestPrebuiltPackIsInvalidated(t *testing.T) {
	tests := []struct {
		name   string
		change func(f *fixture, r *retrieve.Retriever)
		want   string // in the pack after the change
	}{
		{"hand edit", func(f *fixture, _ *retrieve.Retriever) {
			p := filepath.Join(f.project.Root, "decisions", "use-bleve.md")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(data), "Use bleve for search", "Use bleve with BM25F for search", 1)
			if edited == string(data) {
				t.Fatal("fixture title not found")
			}
			if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "Use bleve with BM25F for search"},
		{"write", func(f *fixture, _ *retrieve.Retriever) {
			f.add(mem{path: "constraints/no-force-push", kind: schema.KindConstraint, title: "Never force-push main", body: "Rewrite history only on branches.", pinned: true, age: 1})
		}, "Never force-push main"},
		{"stale list refreshed", func(f *fixture, _ *retrieve.Retriever) {
			p := filepath.Join(f.project.Root, ".cache", "stale.json")
			data := `[{"uri":"mem://project/decisions/use-bleve","files":["index/bm25.go"]}]`
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "possibly stale: index/bm25.go"},
		{"next hour", func(_ *fixture, r *retrieve.Retriever) {
			r.Now = func() time.Time { return now.Add(time.Hour) }
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := packFixture(t)
			if err := f.retriever().Warm(ctx); err != nil {
				t.Fatal(err)
			}
			if !startPack(t, f.retriever(), "s-1").Prebuilt {
				t.Fatal("no prebuilt pack to invalidate")
			}
			r := f.retriever()
			tt.change(f, r)
			p := startPack(t, r, "s-2")
			if p.Prebuilt {
				t.Fatal("served the prebuilt pack after the vault changed")
			}
			if !strings.Contains(p.Markdown, tt.want) {
				t.Fatalf("pack misses %q:\n%s", tt.want, p.Markdown)
			}
			// The pack built on the miss serves the next new session.
			if !startPack(t, r, "s-3").Prebuilt {
				t.Fatal("the rebuilt pack was not kept")
			}
		})
	}
}

func TestOnlyNewSessionsUseThePrebuiltPack(t *testing.T) {
	f := packFixture(t)
	if err := f.retriever().Warm(ctx); err != nil {
		t.Fatal(err)
	}
	for _, req := range []retrieve.PackRequest{
		{SessionStart: true, Resume: true, OnlyNew: true, Session: "s-1"},
		{SessionStart: true, Task: "make search faster"},
		{Task: "which embedder is the default", Prompt: true, Sections: []string{"must", "task"}},
		{SessionStart: true, Sections: []string{"must"}},
	} {
		p, err := f.retriever().Pack(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if p.Prebuilt {
			t.Errorf("%+v was answered from the prebuilt pack", req)
		}
	}
}
