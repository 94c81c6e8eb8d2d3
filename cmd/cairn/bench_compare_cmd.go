package main

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/cairnmem/cairn/internal/perf"
)

// BenchCompareCmd times any commands side by side.
type BenchCompareCmd struct {
	Commands []string `arg:"" name:"command" help:"Commands to time, one argument each (quote them); the first is the reference of the ratios."`
	Runs     int      `default:"30" help:"Rounds to time; each round runs every command once."`
	Warmup   int      `default:"2" help:"Untimed rounds first."`
	Cwd      []string `help:"Working directory: once for all commands, or once per command in their order." placeholder:"DIR"`
	Stdin    []string `help:"File fed to standard input: once for all, or once per command." placeholder:"FILE"`
}

// Help explains the placeholders and what is measured.
func (c *BenchCompareCmd) Help() string {
	return `Each command runs directly (no shell), interleaved with the others: every
round runs each once, starting with a different one, so load on a shared
machine falls on all alike. "{run}" in a command or its stdin becomes the
round's number. Reports wall time (median, p95), CPU time (user + system)
and peak RSS, and each median over the first command's.

  cairn bench compare --cwd vault-a --cwd vault-b --stdin start.json \
    'cairn hook session-start' '/tmp/cairn-old hook session-start'`
}

func (c *BenchCompareCmd) Run(g *Globals, env *Env) error {
	var cmds []perf.Command
	for _, line := range c.Commands {
		cmd, err := perf.ParseCommand(line)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		cmds = append(cmds, cmd)
	}
	dirs, err := perCommand("--cwd", c.Cwd, len(cmds))
	if err != nil {
		return err
	}
	stdins, err := perCommand("--stdin", c.Stdin, len(cmds))
	if err != nil {
		return err
	}
	for i := range cmds {
		cmds[i].Dir = dirs[i]
		if stdins[i] != "" {
			if cmds[i].Stdin, err = os.ReadFile(stdins[i]); err != nil {
				return fmt.Errorf("%w: --stdin: %v", errUsage, err)
			}
		}
	}
	rows, err := perf.Compare(context.Background(), perf.CompareOptions{Commands: cmds, Runs: c.Runs, Warmup: c.Warmup,
		Log: func(s string) { fmt.Fprintf(env.Stderr, "bench: %s\n", s) }})
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rows)
	}
	env.Printf("%-44s %18s %18s %10s %7s %7s\n", "command", "wall med / p95", "cpu med / p95", "peak RSS", "ratio", "cpu")
	for _, r := range rows {
		env.Printf("%-44s %8.1f / %5.1fms %8.1f / %5.1fms %8.1fMB %6.2fx %6.2fx\n", clip(r.Name, 44), r.WallMs.Median, r.WallMs.P95,
			r.CPUMs.Median, r.CPUMs.P95, r.RSSMB.Max, r.Ratio, r.CPURate)
	}
	env.Printf("(%d interleaved rounds on %d CPUs; ratios are medians over the first command's)\n", c.Runs, runtime.NumCPU())
	return nil
}

// perCommand spreads a repeated flag over n commands: none, one for all,
// or exactly one each.
func perCommand(flag string, vals []string, n int) ([]string, error) {
	switch len(vals) {
	case 0:
		return make([]string, n), nil
	case 1:
		out := make([]string, n)
		for i := range out {
			out[i] = vals[0]
		}
		return out, nil
	case n:
		return vals, nil
	}
	return nil, fmt.Errorf("%w: %s is given %d times for %d commands (give it once, or once per command)", errUsage, flag, len(vals), n)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
