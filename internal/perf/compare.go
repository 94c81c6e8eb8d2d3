package perf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"
)

// Command is one program to time: run directly (no shell, which would add
// its own start-up to every sample), in Dir, with Stdin on its standard
// input. Placeholders in Args and Stdin ("{run}", the run's number, and
// whatever the caller adds: "{query}", "{prompt}", "{session}", "{dir}")
// are replaced before each run, so every run can write a memory or open a
// session of its own, and another tool is asked what cairn was asked.
type Command struct {
	Name  string
	Args  []string
	Dir   string
	Stdin []byte
	Env   []string // added to the environment
}

// ParseCommand splits a command line the way a POSIX shell splits words
// (quotes and backslashes, no expansion).
func ParseCommand(line string) (Command, error) {
	args, err := shellquote.Split(line)
	if err != nil {
		return Command{}, fmt.Errorf("command %q: %w", line, err)
	}
	if len(args) == 0 {
		return Command{}, fmt.Errorf("command %q is empty", line)
	}
	return Command{Name: line, Args: args}, nil
}

// Sample is one finished process.
type Sample struct {
	WallMs float64
	CPUMs  float64 // user + system
	RSS    int64   // peak resident set, bytes; 0 where the OS does not say
}

// Start runs c once, its placeholders filled from vars, and measures it
// from spawn to exit. A command that fails is an error carrying the end of
// its stderr.
func (c Command) Start(ctx context.Context, vars map[string]string) (Sample, []byte, error) {
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	fill := strings.NewReplacer(pairs...)
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = fill.Replace(a)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = c.Dir
	if len(c.Env) > 0 {
		cmd.Env = append(os.Environ(), c.Env...)
	}
	cmd.Stdin = strings.NewReader(fill.Replace(string(c.Stdin)))
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	s := time.Now()
	err := cmd.Run()
	wall := time.Since(s)
	if err != nil {
		tail := stderr.Bytes()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return Sample{}, nil, fmt.Errorf("%s: %v: %s", c.Name, err, bytes.TrimSpace(tail))
	}
	ps := cmd.ProcessState
	return Sample{WallMs: ms(wall), CPUMs: ms(ps.UserTime() + ps.SystemTime()), RSS: peakRSS(ps)}, out.Bytes(), nil
}

// CompareOptions configures Compare.
type CompareOptions struct {
	Commands []Command
	Runs     int // timed rounds; each runs every command once
	Warmup   int // untimed rounds first (page cache, first builds)
	Log      func(string)
}

// CompareRow is one command's figures.
type CompareRow struct {
	Name    string  `json:"command"`
	WallMs  Stats   `json:"wall_ms"`
	CPUMs   Stats   `json:"cpu_ms"`
	RSSMB   Stats   `json:"peak_rss_mb"`
	Ratio   float64 `json:"ratio"`     // median wall time over the first command's
	CPURate float64 `json:"cpu_ratio"` // the same for CPU time
}

// Compare times commands interleaved: every round runs each command once,
// starting with a different one each round, so load that comes and goes on
// a shared machine falls on all of them alike. Ratios are to the first.
func Compare(ctx context.Context, o CompareOptions) ([]CompareRow, error) {
	n := len(o.Commands)
	if n == 0 {
		return nil, errors.New("no command to time")
	}
	if o.Runs <= 0 {
		o.Runs = 30
	}
	wall, cpu, rss := make([][]float64, n), make([][]float64, n), make([][]float64, n)
	for round := 0; round < o.Warmup+o.Runs; round++ {
		if round == o.Warmup && o.Log != nil {
			o.Log(fmt.Sprintf("timing %d rounds of %d commands", o.Runs, n))
		}
		for k := 0; k < n; k++ {
			i := (round + k) % n
			s, _, err := o.Commands[i].Start(ctx, map[string]string{"run": strconv.Itoa(round)})
			if err != nil {
				return nil, err
			}
			if round < o.Warmup {
				continue
			}
			wall[i] = append(wall[i], s.WallMs)
			cpu[i] = append(cpu[i], s.CPUMs)
			rss[i] = append(rss[i], float64(s.RSS)/(1<<20))
		}
	}
	rows := make([]CompareRow, n)
	for i, c := range o.Commands {
		rows[i] = CompareRow{Name: c.Name, WallMs: Summarize(wall[i]), CPUMs: Summarize(cpu[i]), RSSMB: Summarize(rss[i])}
	}
	for i := range rows {
		rows[i].Ratio = ratio(rows[i].WallMs.Median, rows[0].WallMs.Median)
		rows[i].CPURate = ratio(rows[i].CPUMs.Median, rows[0].CPUMs.Median)
	}
	return rows, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
