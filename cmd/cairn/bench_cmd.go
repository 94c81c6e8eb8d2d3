package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/internal/perf"
)

// BenchCmd groups benchmarks.
type BenchCmd struct {
	Index     BenchIndexCmd     `cmd:"" help:"Time rebuild, sync and search on synthetic vaults (1k/10k/100k memories)."`
	Retrieval BenchRetrievalCmd `cmd:"" help:"Measure retrieval quality on a labeled dataset (JSONL or LongMemEval)."`
}

// BenchIndexCmd measures the index on synthetic vaults.
type BenchIndexCmd struct {
	Sizes string `default:"1000,10000" help:"Comma-separated vault sizes."`
	Runs  int    `default:"20" help:"Repetitions per timing."`
	Seed  int64  `default:"1" help:"Seed of the synthetic vault."`
	Keep  string `help:"Build the vault in this directory and keep it (one size only)." placeholder:"DIR"`
}

func (c *BenchIndexCmd) Run(g *Globals, env *Env) error {
	var sizes []int
	for _, s := range strings.Split(c.Sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("%w: --sizes: %q is not a positive number", errUsage, s)
		}
		sizes = append(sizes, n)
	}
	if c.Keep != "" && len(sizes) != 1 {
		return fmt.Errorf("%w: --keep needs exactly one size", errUsage)
	}
	bin, _ := os.Executable()
	var reports []*perf.IndexReport
	for _, n := range sizes {
		rep, err := perf.IndexFigures(context.Background(), perf.IndexOptions{Size: n, Seed: c.Seed, Runs: c.Runs, Binary: bin, Dir: c.Keep,
			Log: func(s string) { fmt.Fprintf(env.Stderr, "bench: %s\n", s) }})
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	if g.JSON {
		return env.JSON(reports)
	}
	env.Printf("%-10s %10s %12s %14s %14s %14s %14s %10s %12s\n", "memories", "rebuild", "sync idle", "sync 1 edit", "search (in)", "search (proc)", "proc p95", "peak RSS", "cache/mem")
	for _, r := range reports {
		env.Printf("%-10d %9.2fs %10.2fms %12.2fms %12.2fms %12.2fms %12.2fms %8.1fMB %10.0f B\n", r.Size, r.RebuildSeconds,
			r.SyncNoChangeMs.Median, r.SyncOneEditMs.Median, r.SearchMs.Median, r.SearchProcessMs.Median, r.SearchProcessMs.P95,
			r.SearchPeakRSSMB, r.BytesPerMemory)
	}
	env.Printf("(medians of %d runs on %d CPUs; noisy machines vary, compare within one run)\n", c.Runs, runtime.NumCPU())
	return nil
}
