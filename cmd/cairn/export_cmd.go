package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/cairnmem/cairn/exchange"
	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
)

// ExportCmd writes the vaults out.
type ExportCmd struct {
	Format string `default:"jsonl" enum:"jsonl,markdown-zip" help:"jsonl (one memory per line) or markdown-zip (the files)."`
	Output string `short:"o" help:"Write to FILE instead of stdout." placeholder:"FILE"`
	Scope  string `help:"Only the project or the user vault (default: both)." enum:"project,user," default:""`
}

func (c *ExportCmd) Run(g *Globals, env *Env) error {
	vs, err := env.Vaults(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	var w io.Writer = env.Stdout
	var f *os.File
	if c.Output != "" {
		if f, err = os.Create(c.Output); err != nil {
			return err
		}
		w = f
	}
	res, err := exchange.Export(w, vs, c.Format)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	if c.Output != "" {
		env.Printf("Exported %d memories to %s\n", res.Memories, c.Output)
	}
	if res.Skipped > 0 {
		env.Warnf("left out %d invalid file(s); `cairn doctor` lists them", res.Skipped)
	}
	return nil
}

// ImportCmd brings memories in from other stores.
type ImportCmd struct {
	Path   string `arg:"" help:"A cairn export (.jsonl, .zip), a claude-mem database, a basic-memory/Obsidian folder or a Cline memory-bank folder."`
	Format string `help:"jsonl, markdown-zip, claude-mem, folder or cline (default: detected)." enum:"jsonl,markdown-zip,claude-mem,folder,cline," default:""`
	DryRun bool   `help:"Show what would be written; write nothing."`
}

// Help explains what happens to imported records.
func (c *ImportCmd) Help() string {
	return `Every record goes through the same path as a capture: secrets are redacted,
duplicates of what the vault holds are skipped, preferences merge, decisions
supersede older ones on the same subject. One commit per vault names the
source (Cairn-Source: import:<format>). claude-mem: ~/.claude-mem/claude-mem.db
(observations and session summaries). Cline: the memory-bank/ folder.`
}

func (c *ImportCmd) Run(g *Globals, env *Env) error {
	a := env.App()
	o, err := a.CaptureOptions(extract.Meta{Session: env.g.Session, CodeCommit: a.CodeCommit()})
	if err != nil {
		return err
	}
	o.DryRun, o.Enricher, o.Instructions, o.Log = c.DryRun, nil, nil, nil
	res, err := exchange.Import(context.Background(), c.Path, c.Format, o)
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(res)
	}
	counts := map[string]int{}
	for _, a := range res.Result.Plan {
		counts[string(a.Op)]++
	}
	var ops []string
	for op := range counts {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	env.Printf("%s (%s): %d record(s)", c.Path, res.Format, res.Found)
	for _, op := range ops {
		env.Printf(", %d %s", counts[op], op)
	}
	env.Printf("\n")
	for _, a := range res.Result.Plan {
		target := ""
		if a.Target != nil {
			target = " → " + a.Target.String()
		}
		env.Printf("  %-9s %-10s %s%s\n", a.Op, a.Candidate.Kind, a.Candidate.Title, target)
	}
	for _, w := range res.Warnings {
		env.Warnf("%s", w)
	}
	if c.DryRun {
		env.Printf("(dry run: nothing written)\n")
	} else if res.Result.Applied != nil && len(res.Result.Applied.Commits) > 0 {
		env.Printf("committed %v\n", shortAll(res.Result.Applied.Commits))
	}
	return nil
}

func shortAll(hs []string) []string {
	var out []string
	for _, h := range hs {
		out = append(out, fmt.Sprintf("%.8s", h))
	}
	return out
}
