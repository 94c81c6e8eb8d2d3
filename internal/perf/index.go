// Package perf measures cairn's hot paths on synthetic vaults: the
// figures behind `cairn bench` and the numbers quoted in issue notes.
package perf

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/internal/synth"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// IndexOptions configures IndexFigures.
type IndexOptions struct {
	Size    int    // memories in the synthetic vault
	Seed    int64  // synthetic vault seed
	Runs    int    // repetitions per measurement
	Binary  string // cairn executable for end-to-end timings; "" skips them
	Dir     string // where to build the vault; "" means a temp dir removed afterwards
	Log     func(string)
	Queries []string // default: generated from the synthetic vocabulary
	// Compare times another tool's search right after each of cairn's
	// search processes, "{query}" in its arguments filled in.
	Compare *Command
}

// IndexReport holds the figures for one vault size.
type IndexReport struct {
	Size            int     `json:"memories"`
	GenerateSeconds float64 `json:"generate_seconds"`
	RebuildSeconds  float64 `json:"rebuild_seconds"`
	SyncNoChangeMs  Stats   `json:"sync_no_change_ms"`
	SyncOneEditMs   Stats   `json:"sync_one_edit_ms"`
	SearchMs        Stats   `json:"search_in_process_ms"`
	SearchProcessMs Stats   `json:"search_process_ms,omitempty"`
	SearchPeakRSSMB float64 `json:"search_peak_rss_mb,omitempty"`
	CacheBytes      int64   `json:"cache_bytes"`
	BytesPerMemory  float64 `json:"cache_bytes_per_memory"`
	// Disk is what the vault takes, its git directory and cache included.
	Disk    Disk      `json:"disk"`
	Compare *Compared `json:"compare,omitempty"`
}

// Stats summarizes repeated timings.
type Stats struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Summarize computes the median, 95th percentile and minimum.
func Summarize(xs []float64) Stats {
	if len(xs) == 0 {
		return Stats{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	p95 := s[min(len(s)-1, int(float64(len(s))*0.95))]
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Stats{N: len(s), Median: med, P95: p95, Min: s[0], Max: s[len(s)-1]}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// DefaultQueries are realistic searches over the synthetic vocabulary.
func DefaultQueries(seed int64, n int) []string {
	base := []string{
		"why did we choose postgres for billing", "flaky test shared temp directory", "deadlock detected in scheduler",
		"never commit secrets", "kubernetes migration rollout", "connection refused api gateway", "prefer table driven tests",
		"retry loop backoff", "how do we handle rate limiting", "search indexing decision", "session store cache layer",
		"out of memory ingest pipeline", "release process goreleaser", "structured logging pattern", "webhooks retries",
	}
	r := rand.New(rand.NewSource(seed))
	out := make([]string, n)
	for i := range out {
		out[i] = base[r.Intn(len(base))]
	}
	return out
}

// IndexFigures builds a synthetic vault and measures rebuild, sync and
// search on it, in process and, with a binary, as whole processes.
func IndexFigures(ctx context.Context, o IndexOptions) (*IndexReport, error) {
	if o.Runs <= 0 {
		o.Runs = 20
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			o.Log(fmt.Sprintf(format, args...))
		}
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "cairn-bench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	rep := &IndexReport{Size: o.Size}
	start := time.Now()
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		return nil, err
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		return nil, err
	}
	logf("generating %d memories in %s", o.Size, v.Root)
	if err := synth.Fill(ctx, v, o.Seed, o.Size, nil); err != nil {
		return nil, err
	}
	rep.GenerateSeconds = time.Since(start).Seconds()
	ix, err := index.Open(v, index.Options{})
	if err != nil {
		return nil, err
	}
	logf("rebuilding the index")
	start = time.Now()
	if err := ix.Rebuild(ctx, ""); err != nil {
		return nil, err
	}
	rep.RebuildSeconds = time.Since(start).Seconds()
	if err := ix.Sync(ctx); err != nil { // settle stat data of racy files
		return nil, err
	}

	if rep.SyncNoChangeMs, err = timeRuns(o.Runs, func(int) error { return ix.Sync(ctx) }); err != nil {
		return nil, err
	}

	logf("timing hand edits")
	if rep.SyncOneEditMs, err = syncAfterHandEdits(ctx, ix, o); err != nil {
		return nil, err
	}

	queries := o.Queries
	if len(queries) == 0 {
		queries = DefaultQueries(o.Seed, o.Runs)
	}
	ret := retrieve.New([]*index.Index{ix}) // the ranking every surface runs
	rep.SearchMs, err = timeRuns(o.Runs, func(i int) error {
		_, err := ret.Search(ctx, retrieve.Request{Query: queries[i%len(queries)], Limit: 10})
		return err
	})
	if err != nil {
		return nil, err
	}

	if o.Binary != "" {
		logf("timing %d search processes", o.Runs)
		if err := searchProcesses(ctx, o, dir, queries, rep); err != nil {
			return nil, err
		}
	}
	rep.Disk = diskUsage(v.Root)
	rep.CacheBytes = ix.Bytes()
	rep.BytesPerMemory = float64(rep.CacheBytes) / float64(o.Size)
	return rep, nil
}

// timeRuns times run n times, in milliseconds.
func timeRuns(n int, run func(i int) error) (Stats, error) {
	var t []float64
	for i := 0; i < n; i++ {
		s := time.Now()
		if err := run(i); err != nil {
			return Stats{}, err
		}
		t = append(t, ms(time.Since(s)))
	}
	return Summarize(t), nil
}

// syncAfterHandEdits times index syncs after appending to one random
// memory file per run; the edit itself is not timed.
func syncAfterHandEdits(ctx context.Context, ix *index.Index, o IndexOptions) (Stats, error) {
	var t []float64
	root := ix.Vault().Root
	r := rand.New(rand.NewSource(o.Seed))
	for i := 0; i < o.Runs; i++ {
		m := synth.Memory(o.Seed, r.Intn(o.Size), synth.Epoch)
		p := filepath.Join(root, filepath.FromSlash(m.URI.RelPath()))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return Stats{}, err
		}
		fmt.Fprintf(f, "\nHand edit %d: kubernetes%d noted.\n", i, i)
		f.Close()
		s := time.Now()
		if err := ix.Sync(ctx); err != nil {
			return Stats{}, err
		}
		t = append(t, ms(time.Since(s)))
	}
	return Summarize(t), nil
}

// searchProcesses times `cairn search` as a process, and the command to
// compare with if there is one, on the vault in dir.
func searchProcesses(ctx context.Context, o IndexOptions, dir string, queries []string, rep *IndexReport) error {
	var t, other []float64
	var peak int64
	env := []string{"CAIRN_USER_VAULT=" + filepath.Join(dir, "no-user-vault")}
	for i := 0; i < o.Runs; i++ {
		q := queries[i%len(queries)]
		c := Command{Name: "cairn search", Args: []string{o.Binary, "search", "--scope", "project", "--json", "--", q}, Dir: dir, Env: env}
		s, _, err := c.Start(ctx, nil)
		if err != nil {
			return err
		}
		t = append(t, s.WallMs)
		peak = max(peak, s.RSS)
		if o.Compare != nil {
			cmp := *o.Compare
			cmp.Dir = dir
			so, _, err := cmp.Start(ctx, map[string]string{"run": fmt.Sprint(i), "query": q, "dir": dir})
			if err != nil {
				return err
			}
			other = append(other, so.WallMs)
		}
	}
	rep.SearchProcessMs = Summarize(t)
	rep.SearchPeakRSSMB = float64(peak) / (1 << 20)
	if o.Compare != nil {
		st := Summarize(other)
		rep.Compare = &Compared{What: "search", Command: o.Compare.Name, Ms: st, Ratio: ratio(st.Median, rep.SearchProcessMs.Median)}
	}
	return nil
}
