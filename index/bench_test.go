package index_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/internal/perf"
	"github.com/cairnmem/cairn/internal/synth"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var (
	benchMu     sync.Mutex
	benchVaults = map[int]*vault.Vault{}
	benchDirs   []string
)

// TestMain removes the benchmarks' shared vaults (about 100 MB at 10k)
// when the test binary is done with them.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// benchVault returns a synthetic vault of n memories with a built index,
// shared by the benchmarks of one test binary.
func benchVault(b *testing.B, n int) (*vault.Vault, *index.Index) {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	v, ok := benchVaults[n]
	if !ok {
		dir, err := os.MkdirTemp("", "cairn-index-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDirs = append(benchDirs, dir)
		if _, err := vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
			b.Fatal(err)
		}
		if v, err = vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject); err != nil {
			b.Fatal(err)
		}
		if err := synth.Fill(context.Background(), v, 1, n, nil); err != nil {
			b.Fatal(err)
		}
		benchVaults[n] = v
	}
	ix, err := index.Open(v, index.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	return v, ix
}

var benchSizes = []int{1000, 10000}

// BenchmarkSyncNoChange is the check every read pays when nothing changed.
func BenchmarkSyncNoChange(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			_, ix := benchVault(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := ix.Sync(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSyncOneEdit is a read after one file was edited by hand.
func BenchmarkSyncOneEdit(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			v, ix := benchVault(b, n)
			r := rand.New(rand.NewSource(2))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m := synth.Memory(1, r.Intn(n), synth.Epoch)
				f, err := os.OpenFile(filepath.Join(v.Root, m.URI.RelPath()), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					b.Fatal(err)
				}
				fmt.Fprintf(f, "\nedit %d\n", i)
				f.Close()
				b.StartTimer()
				if err := ix.Sync(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearch is a ranked search in process (sync included) per mode.
func BenchmarkSearch(b *testing.B) {
	queries := perf.DefaultQueries(1, 64)
	for _, n := range benchSizes {
		for _, mode := range []index.Mode{index.ModeText, index.ModeVector, index.ModeHybrid} {
			b.Run(fmt.Sprintf("memories=%d/mode=%s", n, mode), func(b *testing.B) {
				_, ix := benchVault(b, n)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := search(context.Background(), []*index.Index{ix}, index.Query{Text: queries[i%len(queries)], Mode: mode}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
