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
	Hooks     BenchHooksCmd     `cmd:"" help:"Time hook processes (session-start, user-prompt, post-tool) end to end on a synthetic vault."`
	Capture   BenchCaptureCmd   `cmd:"" help:"Run capture on real agent sessions and score what it writes (precision, recall, failures by class)."`
	Compare   BenchCompareCmd   `cmd:"" help:"Time any commands side by side, interleaved (cairn against another tool, or two cairn builds)."`
}

// BenchHooksCmd times hooks as agents run them.
type BenchHooksCmd struct {
	Sizes   string            `default:"10000" help:"Comma-separated vault sizes."`
	Runs    int               `default:"40" help:"Sessions to time per size (each fires three hooks)."`
	Seed    int64             `default:"1" help:"Seed of the synthetic vault."`
	Compare map[string]string `help:"Time another tool's command after each of cairn's hooks, with the same payload on stdin: EVENT=COMMAND (session-start, user-prompt, post-tool; {prompt}, {session}, {dir} and {run} are filled in). Repeatable." placeholder:"EVENT=CMD"`
}

func (c *BenchHooksCmd) Run(g *Globals, env *Env) error {
	sizes, err := parseSizes(c.Sizes)
	if err != nil {
		return err
	}
	others := map[string]perf.Command{}
	for ev, line := range c.Compare {
		if ev != "session-start" && ev != "user-prompt" && ev != "post-tool" {
			return fmt.Errorf("%w: --compare %s: the events timed are session-start, user-prompt and post-tool", errUsage, ev)
		}
		if others[ev], err = perf.ParseCommand(line); err != nil {
			return fmt.Errorf("%w: --compare: %v", errUsage, err)
		}
	}
	var reports []*perf.HookReport
	for _, n := range sizes {
		rep, err := perf.HookFigures(context.Background(), perf.HookOptions{Size: n, Seed: c.Seed, Runs: c.Runs, Binary: currentSelf().executable(),
			Compare: others, Log: func(s string) { fmt.Fprintf(env.Stderr, "bench: %s\n", s) }})
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	if g.JSON {
		return env.JSON(reports)
	}
	env.Printf("%-10s %22s %22s %22s %12s %10s %10s\n", "memories", "session-start med/p95", "user-prompt med/p95", "post-tool med/p95", "start chars", "injected", "peak RSS")
	for _, r := range reports {
		env.Printf("%-10d %12.1f / %5.1fms %12.1f / %5.1fms %12.1f / %5.1fms %12d %9.0f%% %8.1fMB\n", r.Size,
			r.SessionStartMs.Median, r.SessionStartMs.P95, r.UserPromptMs.Median, r.UserPromptMs.P95, r.PostToolMs.Median, r.PostToolMs.P95,
			r.StartContextLen, 100*r.PromptsInjected, r.PeakRSSMB)
		for _, o := range r.Compare {
			env.Printf("  %-13s beside %-40s %8.1f / %5.1fms  %5.2fx cairn's median\n", o.What, clip(o.Command, 40), o.Ms.Median, o.Ms.P95, o.Ratio)
		}
	}
	env.Printf("(wall time of whole hook processes, spawn to exit, %d sessions on %d CPUs)\n", c.Runs, runtime.NumCPU())
	return nil
}

func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%w: --sizes: %q is not a positive number", errUsage, f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// BenchIndexCmd measures the index on synthetic vaults.
type BenchIndexCmd struct {
	Sizes   string `default:"1000,10000" help:"Comma-separated vault sizes."`
	Runs    int    `default:"20" help:"Repetitions per timing."`
	Seed    int64  `default:"1" help:"Seed of the synthetic vault."`
	Keep    string `help:"Build the vault in this directory and keep it (one size only)." placeholder:"DIR"`
	Compare string `help:"Time another tool's search after each of cairn's search processes ({query}, {dir} and {run} are filled in)." placeholder:"CMD"`
}

func (c *BenchIndexCmd) Run(g *Globals, env *Env) error {
	sizes, err := parseSizes(c.Sizes)
	if err != nil {
		return err
	}
	if c.Keep != "" && len(sizes) != 1 {
		return fmt.Errorf("%w: --keep needs exactly one size", errUsage)
	}
	bin, _ := os.Executable()
	var other *perf.Command
	if c.Compare != "" {
		cmd, err := perf.ParseCommand(c.Compare)
		if err != nil {
			return fmt.Errorf("%w: --compare: %v", errUsage, err)
		}
		other = &cmd
	}
	var reports []*perf.IndexReport
	for _, n := range sizes {
		rep, err := perf.IndexFigures(context.Background(), perf.IndexOptions{Size: n, Seed: c.Seed, Runs: c.Runs, Binary: bin, Dir: c.Keep,
			Compare: other, Log: func(s string) { fmt.Fprintf(env.Stderr, "bench: %s\n", s) }})
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	if g.JSON {
		return env.JSON(reports)
	}
	env.Printf("%-10s %10s %12s %14s %14s %14s %14s %10s %12s %12s\n", "memories", "rebuild", "sync idle", "sync 1 edit", "search (in)", "search (proc)", "proc p95", "peak RSS", "cache/mem", "vault disk")
	for _, r := range reports {
		env.Printf("%-10d %9.2fs %10.2fms %12.2fms %12.2fms %12.2fms %12.2fms %8.1fMB %10.0f B %10.1fMB\n", r.Size, r.RebuildSeconds,
			r.SyncNoChangeMs.Median, r.SyncOneEditMs.Median, r.SearchMs.Median, r.SearchProcessMs.Median, r.SearchProcessMs.P95,
			r.SearchPeakRSSMB, r.BytesPerMemory, float64(r.Disk.Total.Allocated)/(1<<20))
		if o := r.Compare; o != nil {
			env.Printf("  search beside %-40s %8.1f / %5.1fms  %5.2fx cairn's median\n", clip(o.Command, 40), o.Ms.Median, o.Ms.P95, o.Ratio)
		}
	}
	env.Printf("(medians of %d runs on %d CPUs; noisy machines vary, compare within one run)\n", c.Runs, runtime.NumCPU())
	return nil
}
