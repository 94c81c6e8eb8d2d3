package retrieve_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/internal/synth"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var (
	benchOnce sync.Once
	benchV    *vault.Vault
)

func benchRetriever(b *testing.B) *retrieve.Retriever {
	benchOnce.Do(func() {
		dir, _ := os.MkdirTemp("", "cairn-pack-bench-")
		vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: dir})
		benchV, _ = vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
		if err := synth.Fill(context.Background(), benchV, 1, 10000, nil); err != nil {
			b.Fatal(err)
		}
	})
	ix, _ := index.Open(benchV, index.Options{})
	if err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	return retrieve.New([]*index.Index{ix})
}

// BenchmarkPack builds a context pack for a task at 10k memories: the work
// behind the session-start and prompt hooks.
func BenchmarkPack(b *testing.B) {
	r := benchRetriever(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Pack(context.Background(), retrieve.PackRequest{SessionStart: true, Task: "flaky test shared temp directory"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch ranks a query at 10k memories with every signal.
func BenchmarkSearch(b *testing.B) {
	r := benchRetriever(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Search(context.Background(), retrieve.Request{Query: "flaky test shared temp directory"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionStartPack is a new session's pack at 10k memories,
// built (cold) or read from the pack the last session left (prebuilt):
// the work behind the session-start hook, its cache sync included.
func BenchmarkSessionStartPack(b *testing.B) {
	for _, mode := range []string{"cold", "prebuilt"} {
		b.Run(mode, func(b *testing.B) {
			r := benchRetriever(b)
			if err := r.Warm(context.Background()); err != nil {
				b.Fatal(err)
			}
			prebuilt := filepath.Join(r.Indexes()[0].Dir(), "derived", "session-start-pack.json")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode == "cold" {
					b.StopTimer()
					os.Remove(prebuilt)
					b.StartTimer()
				}
				p, err := r.Pack(context.Background(), retrieve.PackRequest{SessionStart: true, Session: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				if p.Prebuilt != (mode == "prebuilt") {
					b.Fatalf("%s: prebuilt = %v", mode, p.Prebuilt)
				}
			}
		})
	}
}
