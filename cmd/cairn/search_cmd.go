package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// SearchCmd searches memories.
type SearchCmd struct {
	Query   []string `arg:"" optional:"" help:"Words to look for (empty: the most recent memories)."`
	Kind    []string `short:"k" sep:"," help:"Only these kinds (repeat or comma-separate)."`
	Tag     []string `short:"T" sep:"," help:"Only memories with every one of these tags."`
	Scope   string   `help:"Search only the project or the user vault." enum:"project,user," default:""`
	Status  []string `sep:"," help:"Only these statuses (active includes open)."`
	Since   string   `help:"Updated at or after: a date, a time, or an age (7d, 2w, 3mo)."`
	Until   string   `help:"Updated at or before: a date, a time, or an age."`
	Limit   int      `short:"n" default:"10" help:"How many results."`
	Mode    string   `enum:"text,vector,hybrid" default:"hybrid" help:"text (BM25), vector (embeddings), or hybrid (both, fused)."`
	Explain bool     `help:"Show each ranking signal's contribution per hit."`
}

// Help describes the ranking.
func (c *SearchCmd) Help() string {
	return `Searches the project vault and the user vault together. Hybrid mode fuses
the full-text ranking (BM25 over title, summary, tags, triggers and body) with
the vector ranking by reciprocal rank. The default embedder is lexical: hashed
words, word pairs and character n-grams, no model and no network.

The index is synced before every search, so hand edits are found at once.`
}

// searchCard is a hit as search prints it: never the whole file.
type searchCard struct {
	URI     string         `json:"uri"`
	Kind    string         `json:"kind"`
	Title   string         `json:"title"`
	Summary string         `json:"summary"`
	Score   float64        `json:"score"`
	Scope   string         `json:"scope"`
	Updated time.Time      `json:"updated"`
	Status  string         `json:"status,omitempty"`
	Tags    []string       `json:"tags,omitempty"`
	Signals []index.Signal `json:"signals,omitempty"`
}

func (c *SearchCmd) query() (index.Query, error) {
	q := index.Query{Text: strings.Join(c.Query, " "), Tags: c.Tag, Limit: c.Limit, Mode: index.Mode(c.Mode)}
	for _, k := range c.Kind {
		kind, err := schema.ParseKind(k)
		if err != nil {
			return q, fmt.Errorf("%w: --kind: %v", errUsage, err)
		}
		q.Kinds = append(q.Kinds, kind)
	}
	for _, s := range c.Status {
		st := schema.Status(strings.ToLower(s))
		if !st.Valid() {
			return q, fmt.Errorf("%w: --status %q (active, open, done, superseded, archived)", errUsage, s)
		}
		q.Statuses = append(q.Statuses, st)
	}
	var err error
	now := time.Now()
	if q.Since, err = parseWhen(c.Since, now); err != nil {
		return q, err
	}
	if q.Until, err = parseWhen(c.Until, now); err != nil {
		return q, err
	}
	if c.Limit < 1 {
		return q, fmt.Errorf("%w: --limit must be at least 1", errUsage)
	}
	return q, nil
}

func (c *SearchCmd) Run(g *Globals, env *Env) error {
	q, err := c.query()
	if err != nil {
		return err
	}
	ixs, err := env.Indexes(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	res, err := index.Search(context.Background(), ixs, q)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		env.Warnf("%s", w)
	}
	cards := make([]searchCard, 0, len(res.Hits))
	for _, h := range res.Hits {
		card := searchCard{URI: h.URI.String(), Kind: string(h.Kind), Title: h.Title, Summary: h.Summary, Score: h.Score,
			Scope: string(h.Scope), Updated: h.Updated, Status: string(h.Status), Tags: h.Tags}
		if c.Explain {
			card.Signals = h.Signals
		}
		cards = append(cards, card)
	}
	if g.JSON {
		return env.JSON(struct {
			Query string       `json:"query"`
			Mode  index.Mode   `json:"mode"`
			Hits  []searchCard `json:"hits"`
		}{q.Text, res.Mode, cards})
	}
	if len(cards) == 0 {
		fmt.Fprintln(env.Stderr, "no matches")
		return nil
	}
	for i, card := range cards {
		status := ""
		if card.Status != "" && card.Status != string(schema.StatusActive) && card.Status != string(schema.StatusOpen) {
			status = " [" + card.Status + "]"
		}
		env.Printf("%2d. %s  %s%s  %.4g\n", i+1, card.URI, card.Kind, status, card.Score)
		env.Printf("    %s", card.Title)
		if card.Summary != "" && card.Summary != card.Title {
			env.Printf(" — %s", card.Summary)
		}
		env.Printf("\n")
		if c.Explain {
			var parts []string
			for _, s := range card.Signals {
				parts = append(parts, fmt.Sprintf("%s #%d (%.4g) +%.4g", s.Name, s.Rank, s.Score, s.Contribution))
			}
			env.Printf("    why: %s\n", strings.Join(parts, ", "))
		}
	}
	return nil
}
