package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve/bench"
	"golang.org/x/term"
)

// BenchRetrievalCmd runs the retrieval benchmark.
type BenchRetrievalCmd struct {
	File     string `arg:"" help:"Dataset: JSONL cases, or LongMemEval JSON with --format longmemeval." type:"existingfile"`
	Format   string `enum:"jsonl,longmemeval" default:"jsonl" help:"jsonl (generic cases) or longmemeval."`
	Turns    bool   `help:"LongMemEval at turn level: one memory per user turn."`
	Mode     string `enum:"text,vector,hybrid" default:"hybrid" help:"Ranking mode."`
	Embedder string `enum:"lexical,ollama,openai,none" default:"lexical" help:"Embedder for the case vaults."`
	Model    string `help:"Embedding model (ollama, openai)."`
	URL      string `help:"Embedding server URL (ollama, openai)."`
	Workers  int    `help:"Cases run at once (default: the number of CPUs)."`
	Details  bool   `help:"With --json, include every query's ranking."`
}

// Help describes the protocol.
func (c *BenchRetrievalCmd) Help() string {
	return `Each case becomes a vault of its own: its corpus is remembered through the
normal write path (one memory per entry, dated), indexed, and each query is
ranked by the same code as 'cairn search', with the clock set to the query's
date. Reported: recall@k, recall_any@k, recall_all@k for k = 5 and 10, MRR and
nDCG@10, overall and per category; ingest and index rates; query latency.

Generic JSONL, one case per line:
  {"id": "...", "corpus": [{"id": "...", "text": "...", "time": "2026-01-02", "session": "..."}],
   "queries": [{"id": "...", "text": "...", "time": "...", "relevant": ["corpus id"], "category": "..."}]}
Corpus entries of one conversation session share "session" (optional), in
the order they were said: their memories record it as captured memories
do, and ranking reads a turn in the context of its neighbours.
testdata/bench/conversations.jsonl is an example.`
}

func (c *BenchRetrievalCmd) Run(g *Globals, env *Env) error {
	f, err := os.Open(c.File)
	if err != nil {
		return err
	}
	defer f.Close()
	var cases []bench.Case
	if c.Format == "longmemeval" {
		cases, err = bench.LoadLongMemEval(f, c.Turns)
	} else {
		cases, err = bench.LoadJSONL(f)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errUsage, c.File, err)
	}
	ic := config.Default().Index
	ic.Embedder = c.Embedder
	if c.Model != "" {
		ic.Model = c.Model
	}
	if c.URL != "" {
		ic.URL = c.URL
	}
	if (ic.Embedder == "ollama" || ic.Embedder == "openai") && ic.Model == "" {
		return fmt.Errorf("%w: --model is required for --embedder %s", errUsage, ic.Embedder)
	}
	var progress func(done, total int)
	if f, ok := env.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		progress = func(done, total int) {
			fmt.Fprintf(env.Stderr, "\rbench: %d/%d cases", done, total)
			if done == total {
				fmt.Fprint(env.Stderr, "\r\033[K")
			}
		}
	}
	rep, err := bench.Run(context.Background(), cases, bench.Options{Name: filepath.Base(c.File), Mode: index.Mode(c.Mode),
		Index: &ic, Workers: c.Workers, Progress: progress, Details: c.Details})
	if err != nil {
		return err
	}
	if g.JSON {
		return env.JSON(rep)
	}
	env.Printf("%s: %d cases, %d queries (%d skipped without relevant ids), %d memories; mode %s, embedder %s\n\n",
		rep.Dataset, rep.Cases, rep.Queries, rep.Skipped, rep.Memories, rep.Mode, rep.Embedder)
	row := func(name string, s bench.Scores) {
		env.Printf("%-28s %4d  %6.3f %6.3f %6.3f  %6.3f %6.3f %6.3f  %6.3f %6.3f\n", name, s.N, s.Recall5, s.RecallAny5, s.RecallAll5,
			s.Recall10, s.RecallAny10, s.RecallAll10, s.MRR, s.NDCG10)
	}
	env.Printf("%-28s %4s  %6s %6s %6s  %6s %6s %6s  %6s %6s\n", "category", "n", "r@5", "any@5", "all@5", "r@10", "any@10", "all@10", "MRR", "nDCG10")
	env.Printf("%s\n", strings.Repeat("-", 98))
	for _, cat := range rep.Categories() {
		row(cat, rep.ByCategory[cat])
	}
	env.Printf("%s\n", strings.Repeat("-", 98))
	row("overall", rep.Overall)
	env.Printf("\ningest %.0f memories/s, index %.0f memories/s; query p50 %.1f ms, p95 %.1f ms; %.1f s in all\n",
		rep.IngestPerSec, rep.IndexPerSec, rep.QueryP50Ms, rep.QueryP95Ms, rep.Seconds)
	return nil
}
