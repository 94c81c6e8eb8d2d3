package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnmem/cairn/app"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/transcript"
	"github.com/cairnmem/cairn/vault"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// BackfillCmd learns from the project's past agent sessions.
type BackfillCmd struct {
	Agent  string `enum:"all,claude,codex" default:"all" help:"Whose sessions: all, claude (Claude Code) or codex."`
	Since  string `help:"Only sessions started since (a date, or an age: 30d, 2w)." placeholder:"WHEN"`
	Limit  int    `help:"At most this many sessions (the most recent ones)."`
	DryRun bool   `help:"List the sessions and what capture would write; write nothing."`
	Force  bool   `help:"Capture sessions again even when they were captured before."`
}

// Help explains where sessions come from.
func (c *BackfillCmd) Help() string {
	return `Finds the sessions Claude Code ($CLAUDE_CONFIG_DIR or ~/.claude/projects/)
and Codex ($CODEX_HOME or ~/.codex/sessions/) recorded in this project or
below it, and captures each one, oldest first, exactly as the Stop hook
would have: one commit per session and vault, dated by the session.

A second run writes nothing: captured transcripts are remembered in
.memory/.cache/backfill.json (with their size, so a session that went on is
captured again), and what a session taught twice is deduplicated.`
}

func (c *BackfillCmd) Run(g *Globals, env *Env) error {
	p, err := env.Project()
	if err != nil {
		return err
	}
	found, err := c.sessions(p)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		if g.JSON {
			return env.JSON(extract.BackfillReport{})
		}
		env.Printf("No past Claude Code or Codex sessions found for %s.\n", p.ProjectDir())
		return nil
	}
	o, err := captureOptions(env, "backfill")
	if err != nil {
		return err
	}
	o.DryRun = c.DryRun
	bo := extract.BackfillOptions{Capture: o, Force: c.Force, Ledger: filepath.Join(p.Root, index.CacheDir, "backfill.json")}
	if f, ok := env.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && !g.JSON {
		bar := progressbar.NewOptions(len(found), progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("learning from past sessions"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		bo.Progress = func(done, total int, _ transcript.Found) { _ = bar.Set(done) }
	}
	rep, err := extract.Backfill(context.Background(), found, bo)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	c.print(env, found, rep)
	if len(rep.Failed) > 0 {
		return &silentError{code: ExitFailure}
	}
	return nil
}

// sessions lists the project's past sessions, filtered by the flags.
func (c *BackfillCmd) sessions(p *vault.Vault) ([]transcript.Found, error) {
	dir := p.ProjectDir()
	if dir == "" {
		return nil, fmt.Errorf("%w: backfill learns from a project's sessions; %s is not a project vault", errUsage, p.Root)
	}
	h := transcript.DefaultHomes()
	switch c.Agent {
	case "claude":
		h.Codex = ""
	case "codex":
		h.Claude = ""
	}
	found, err := transcript.FindSessions(dir, h)
	if err != nil {
		return nil, err
	}
	if c.Since != "" {
		since, err := app.ParseWhen(c.Since, time.Now())
		if err != nil {
			return nil, fmt.Errorf("%w: --since: %v", errUsage, err)
		}
		kept := found[:0]
		for _, f := range found {
			if !f.Start.Before(since) {
				kept = append(kept, f)
			}
		}
		found = kept
	}
	if c.Limit > 0 && len(found) > c.Limit {
		found = found[len(found)-c.Limit:]
	}
	return found, nil
}

func (c *BackfillCmd) print(env *Env, found []transcript.Found, rep *extract.BackfillReport) {
	if c.DryRun {
		for i, r := range rep.Results {
			env.Printf("%s %s\n", found[i].Start.Format("2006-01-02"), found[i].Path)
			for _, a := range r.Plan {
				env.Printf("  %-9s %-10s %s\n", a.Op, a.Candidate.Kind, a.Candidate.Title)
			}
		}
	}
	verb := "Learned from"
	if c.DryRun {
		verb = "Would learn from"
	}
	env.Printf("%s %d of %d past session(s)", verb, rep.Captured, rep.Sessions)
	if rep.Skipped > 0 {
		env.Printf(" (%d already captured)", rep.Skipped)
	}
	env.Printf(".\n")
	var ops []string
	for _, op := range []extract.Op{extract.OpCreate, extract.OpRewrite, extract.OpMerge, extract.OpSupersede, extract.OpClose, extract.OpSkip} {
		if n := rep.ByOp[op]; n > 0 {
			ops = append(ops, fmt.Sprintf("%d %s", n, op))
		}
	}
	if len(ops) > 0 {
		env.Printf("Memories: %s; %d commit(s).\n", strings.Join(ops, ", "), rep.Commits)
	}
	if rep.Empty > 0 {
		env.Printf("%d session(s) had nothing worth keeping.\n", rep.Empty)
	}
	for _, f := range rep.Failed {
		env.Warnf("could not capture %s", f)
	}
	if rep.Captured > 0 && !c.DryRun {
		env.Printf("Review what was written with `cairn review`.\n")
	}
}

// captureOptions wires a capture the way every surface does (app).
func captureOptions(env *Env, source string) (extract.Options, error) {
	return env.App().CaptureOptions(extract.Meta{Source: source})
}

// offerBackfill tells a person who just set cairn up that their agents
// already recorded sessions of this project, and on a terminal offers to
// learn from them at once; --backfill does it without asking.
func offerBackfill(g *Globals, env *Env, now bool) error {
	if g.JSON {
		return nil
	}
	p, err := env.Project()
	if err != nil || p.ProjectDir() == "" {
		return nil // no project vault yet: nothing to learn into
	}
	found, err := transcript.FindSessions(p.ProjectDir(), transcript.DefaultHomes())
	if err != nil || len(found) == 0 {
		return nil
	}
	by := map[string]int{}
	for _, f := range found {
		by[f.Agent]++
	}
	var parts []string
	for _, a := range []string{"claude-code", "codex"} {
		if by[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[a], map[string]string{"claude-code": "Claude Code", "codex": "Codex"}[a]))
		}
	}
	env.Printf("\nFound %s session(s) of this project recorded before cairn was here.\n", strings.Join(parts, " and "))
	if !now && reviewTerminal(env) {
		in := bufio.NewReader(env.Stdin)
		now = strings.HasPrefix(answer(env, in, "Learn from them now? [y/N] "), "y")
	}
	if !now {
		env.Printf("Learn from them with `cairn backfill` (it is idempotent; --dry-run shows what it would write).\n")
		return nil
	}
	return (&BackfillCmd{Agent: "all"}).Run(g, env)
}
