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
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ExtractCmd learns memories from a saved transcript or from the journal.
type ExtractCmd struct {
	Transcript string `arg:"" optional:"" help:"Claude Code transcript, Codex rollout or journal file."`
	Replay     bool   `help:"Re-derive memories from the journal (.memory/.journal), applying only what changed."`
	SessionID  string `name:"session-id" help:"With --replay, only this session."`
	DryRun     bool   `help:"Show what would be written; write nothing."`
}

// Help explains extraction.
func (c *ExtractCmd) Help() string {
	return `Extraction is deterministic and needs no API key: decisions, constraints and
preferences from what people said; open threads (TODO, "later", unfinished
todo lists, tests failing at the end); cases (a failing command, the fix, the
passing run); outcomes (files, commands and exit codes, tests); one summary
per session. Secrets are redacted first. Each candidate is checked against
the vault: duplicates are skipped, preferences merge, decisions and
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
	red, err := extract.NewRedactor(p.Config.Capture.Redact)
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
	ixs, err := env.Indexes("")
	if err != nil {
		return err
	}
	vaults := map[schema.Scope]*vault.Vault{schema.ScopeProject: p}
	if u, err := env.User(); err == nil {
		vaults[schema.ScopeUser] = u
	}
	enricher, err := extract.NewEnricher(p.Config.Capture.Enrich)
	if err != nil {
		return err
	}
	var results []*extract.Result
	for _, f := range files {
		t, agent, err := extract.ParseFile(f)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, f, err)
		}
		for _, w := range t.Warnings {
			env.Warnf("%s", w)
		}
		s := extract.Assemble(t, agent)
		source := "extract"
		if c.Replay {
			source = "replay"
		}
		o := extract.Options{Vaults: vaults, Lookup: extract.IndexLookup{R: retrieve.New(ixs)}, Redactor: red, DryRun: c.DryRun,
			Now: time.Now(), Enricher: enricher, Log: env.Stderr,
			Meta: extract.Meta{Agent: agent, Session: s.ID, Transcript: f, CodeCommit: vault.ProjectHead(p.ProjectDir()), Source: source}}
		res, err := extract.Capture(context.Background(), s, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		results = append(results, res)
		if !g.JSON {
			printCapture(env, f, res, c.DryRun)
		}
	}
	if g.JSON {
		return env.JSON(results)
	}
	return nil
}

func printCapture(env *Env, file string, res *extract.Result, dry bool) {
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
