package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairnmem/cairn/extract/bench"
	"golang.org/x/term"
)

// BenchCaptureCmd runs capture on real sessions and scores it.
type BenchCaptureCmd struct {
	Paths  []string `arg:"" help:"Transcripts (Claude Code .jsonl, Codex rollouts), or directories searched for them."`
	Labels string   `help:"Directory of label files (one YAML per session) to score against." type:"existingdir" placeholder:"DIR"`
	Split  string   `help:"Only sessions whose label has this split (tune, holdout)."`
	Detail bool     `help:"List every memory written, with its verdict, and every important item missed."`
	Keep   string   `help:"Keep the vaults in DIR (created) to read what was written." placeholder:"DIR"`
}

// Help explains the protocol.
func (c *BenchCaptureCmd) Help() string {
	return `Each session is captured the way the Stop hook captures it, into a fresh
vault per project (sessions of one project oldest first, so later sessions
meet what earlier ones wrote), and what was written is read back.

Without labels, every memory is checked for what is wrong whatever the
session: injected markup (system reminders, IDE selections, templates),
dates outside the session, "still failing" threads for checks that never
failed or later passed, garbled titles; and capture must not fail.

With --labels DIR (testdata/capture/labels holds the labels of the
development set in ../shared/capture-dev), each memory is also judged:
keep (it holds something that mattered), useful, delete (a label says it
must not be written), or unmatched; and recall counts the important items
of each session found in what was written or already known.

  precision = (keep + useful) / written     delete = delete / written
  recall    = important items captured / important items labeled`
}

func (c *BenchCaptureCmd) Run(g *Globals, env *Env) error {
	files, err := sessionFiles(c.Paths)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	o := bench.Options{Capture: bench.DefaultCapture, Dir: c.Keep}
	if c.Keep != "" {
		// Vaults already there would meet this run's memories as known
		// and score a run that wrote nothing.
		if entries, err := os.ReadDir(c.Keep); err == nil && len(entries) > 0 {
			return fmt.Errorf("%w: --keep %s is not empty: its vaults would already hold what this run writes; give a new or empty directory", errUsage, c.Keep)
		}
		if err := os.MkdirAll(c.Keep, 0o755); err != nil {
			return err
		}
	}
	if c.Labels != "" {
		if o.Labels, err = bench.LoadLabels(c.Labels); err != nil {
			return err
		}
	}
	if c.Split != "" {
		if o.Labels == nil {
			return fmt.Errorf("%w: --split needs --labels", errUsage)
		}
		var kept []string
		for _, f := range files {
			if l := o.Labels[filepath.Base(f)]; l != nil && l.Split == c.Split {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: no sessions to capture in %s", errUsage, strings.Join(c.Paths, ", "))
	}
	if f, ok := env.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		o.Progress = func(done, total int, name string) {
			fmt.Fprintf(env.Stderr, "\r\033[Kbench capture: %d/%d %s", done, total, name)
			if done == total {
				fmt.Fprint(env.Stderr, "\r\033[K")
			}
		}
	}
	rep, err := bench.Run(context.Background(), files, o)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	rep.Print(env.Stdout, c.Detail)
	return nil
}

// sessionFiles expands paths into transcript files: files as given,
// directories searched for *.jsonl; subagent files are their parent
// session's, not sessions of their own.
func sessionFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if !d.IsDir() && strings.HasSuffix(name, ".jsonl") && !(strings.HasPrefix(name, "agent-") && !strings.HasPrefix(name, "agent-acompact")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}
