package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/transcript"
	"github.com/cairnmem/cairn/vault"
)

// ExtractCmd learns memories from a saved transcript or from the journal.
type ExtractCmd struct {
	Transcript string `arg:"" optional:"" help:"Claude Code transcript, Codex rollout or journal file."`
	Replay     bool   `help:"Re-derive memories from the journal (.memory/.journal), applying only what changed."`
	SessionID  string `name:"session-id" help:"With --replay, only this session."`
	DryRun     bool   `help:"Show what would be written; write nothing."`
	Explain    bool   `help:"Show each candidate's evidence and confidence, and what was left out and why."`
}

// Help explains extraction.
func (c *ExtractCmd) Help() string {
	return `Extraction is deterministic and needs no API key. The transcript is first
cleaned into turns: what the person typed (not the reminders, IDE selections,
templates and instruction files an agent puts in the user's place), what the
agent said, which tools ran and whether they really ran. Then:

  session    one summary per session: what was asked, done, and how it ended
  decisions  choices the person stated, answers to the agent's questions,
             plans the person approved
  rules      rules and preferences stated to last ("never", "from now on",
             "stop doing"), not one-turn instructions, not reversed later
  gotchas    a real failure, its cause named by the agent, a fix that held
  commands   the commands that built, tested or linted the project
  threads    work the person put off, a check still failing at the end

Each candidate carries its evidence and a confidence; weak ones and ones the
agent's instruction files (CLAUDE.md, AGENTS.md) already state are left out
(--explain shows them). Secrets are redacted first. Each candidate is checked
against the vault: duplicates are skipped, preferences merge, decisions and
constraints supersede older ones on the same subject, threads close.`
}

func (c *ExtractCmd) Run(g *Globals, env *Env) error {
	if c.Transcript == "" && !c.Replay {
		return fmt.Errorf("%w: give a transcript file, or --replay", errUsage)
	}
	p, err := env.Project()
	if err != nil {
		return err
	}
	var files []string
	if c.Replay {
		if c.SessionID != "" {
			files = []string{extract.JournalPath(p.Root, c.SessionID)}
		} else {
			files, _ = filepath.Glob(filepath.Join(p.Root, extract.JournalDir, "*.jsonl"))
			sort.Strings(files)
		}
		if len(files) == 0 {
			return fmt.Errorf("%w: no journal in %s (hooks write it; install them with `cairn install claude`)", vault.ErrNotFound, filepath.Join(p.Root, extract.JournalDir))
		}
	} else {
		files = []string{c.Transcript}
	}
	source := "extract"
	if c.Replay {
		source = "replay"
	}
	o, err := captureOptions(env, source)
	if err != nil {
		return err
	}
	o.DryRun = c.DryRun
	o.Meta.CodeCommit = vault.ProjectHead(p.ProjectDir())
	var results []*extract.Result
	for _, f := range files {
		sess, err := transcript.Read(f)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		for _, w := range sess.Warnings {
			env.Warnf("%s", w)
		}
		o.Now = time.Now()
		o.Meta.Agent, o.Meta.Session, o.Meta.Transcript = sess.Agent, sess.ID, f
		res, err := extract.CaptureSession(context.Background(), sess, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		results = append(results, res)
		if !g.JSON {
			printCapture(env, f, res, c.DryRun, c.Explain)
		}
	}
	if g.JSON {
		return env.JSON(results)
	}
	return nil
}

func printCapture(env *Env, file string, res *extract.Result, dry, explain bool) {
	counts := map[extract.Op]int{}
	for _, a := range res.Plan {
		counts[a.Op]++
	}
	env.Printf("%s: %d candidate(s)", file, len(res.Candidates))
	for _, op := range []extract.Op{extract.OpCreate, extract.OpRewrite, extract.OpMerge, extract.OpSupersede, extract.OpClose, extract.OpSkip} {
		if counts[op] > 0 {
			env.Printf(", %d %s", counts[op], op)
		}
	}
	env.Printf("\n")
	for _, a := range res.Plan {
		target := ""
		if a.Target != nil {
			target = " → " + a.Target.String()
		}
		env.Printf("  %-9s %-10s %s%s\n", a.Op, a.Candidate.Kind, a.Candidate.Title, target)
		if explain {
			env.Printf("            %s (confidence %.2f, %s)\n", a.Candidate.Rule, a.Candidate.Confidence, a.Reason)
		}
	}
	if explain {
		for _, d := range res.Dropped {
			env.Printf("  %-9s %-10s %s\n            %s\n", "left out", d.Candidate.Kind, d.Candidate.Title, d.Reason)
		}
	}
	if dry {
		env.Printf("(dry run: nothing written)\n")
	} else if res.Applied != nil && len(res.Applied.Commits) > 0 {
		env.Printf("committed %s\n", strings.Join(shortHashes(res.Applied.Commits), ", "))
	}
	for _, n := range notes(res) {
		fmt.Fprintln(os.Stderr, "cairn: "+n)
	}
}

func notes(res *extract.Result) []string {
	if res.Applied == nil {
		return nil
	}
	return res.Applied.Notes
}

func shortHashes(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h[:min(8, len(h))]
	}
	return out
}
