package main

import (
	"context"
	"fmt"
	"github.com/cairnmem/cairn/app"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

// explainParts prints score parts compactly: relevance terms, then boosts.
func explainParts(ps []retrieve.Part) string {
	var out []string
	for _, p := range ps {
		if p.Effect == 0 && p.Value == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s %.3g→%+.3g", p.Name, p.Value, p.Effect))
	}
	return strings.Join(out, ", ")
}

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
	Safe    bool     `help:"Leave out memories tagged as known-bad paths (retrieve.safe_exclude)."`
}

// Help describes the ranking.
func (c *SearchCmd) Help() string {
	return `Searches the project vault and the user vault together. Relevance fuses a
BM25F full-text ranking (title, summary, tags, triggers, body; typos corrected)
with the vector ranking; recency decay per kind, importance, access frequency,
kind weight, links and any time the query names ("last week", "in May") scale
it. Superseded memories are replaced by their successors; near-duplicates
collapse to the most recent. Weights live in cairn.yaml under retrieve:.

The default embedder is lexical: hashed words, word pairs and character
n-grams, no model and no network. The index is synced before every search, so
hand edits are found at once.`
}

// searchCard is a hit as search prints it: never the whole file.
type searchCard struct {
	URI     string          `json:"uri"`
	Kind    string          `json:"kind"`
	Title   string          `json:"title"`
	Summary string          `json:"summary"`
	Score   float64         `json:"score"`
	Scope   string          `json:"scope"`
	Updated time.Time       `json:"updated"`
	Status  string          `json:"status,omitempty"`
	Tags    []string        `json:"tags,omitempty"`
	Note    string          `json:"note,omitempty"`
	Signals []index.Signal  `json:"signals,omitempty"`
	Parts   []retrieve.Part `json:"parts,omitempty"`
}

func (c *SearchCmd) query() (retrieve.Request, error) {
	q := retrieve.Request{Query: strings.Join(c.Query, " "), Tags: c.Tag, Limit: c.Limit, Mode: index.Mode(c.Mode), Safe: c.Safe}
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
	if q.Since, err = app.ParseWhen(c.Since, now); err != nil {
		return q, err
	}
	if q.Until, err = app.ParseWhen(c.Until, now); err != nil {
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
	res, err := env.App().Search(context.Background(), schema.Scope(c.Scope), q)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		env.Warnf("%s", w)
	}
	cards := make([]searchCard, 0, len(res.Items))
	for _, h := range res.Items {
		card := searchCard{URI: h.URI.String(), Kind: string(h.Kind), Title: h.Title, Summary: h.Summary, Score: h.Score,
			Scope: string(h.Scope), Updated: h.Updated, Status: string(h.Status), Tags: h.Tags, Note: h.Note}
		if c.Explain {
			card.Signals, card.Parts = h.Signals, h.Parts
		}
		cards = append(cards, card)
	}
	if g.JSON {
		return env.JSON(struct {
			Query  string           `json:"query"`
			Mode   index.Mode       `json:"mode"`
			Window *retrieve.Window `json:"window,omitempty"`
			Hits   []searchCard     `json:"hits"`
		}{q.Query, res.Mode, res.Window, cards})
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
		if card.Note != "" {
			env.Printf("    note: %s\n", card.Note)
		}
		if c.Explain {
			var sigs []string
			for _, s := range card.Signals {
				sigs = append(sigs, fmt.Sprintf("%s #%d (%.4g)", s.Label(), s.Rank, s.Score))
			}
			env.Printf("    why: %s\n", strings.Join(sigs, ", "))
			env.Printf("    score: %s\n", explainParts(card.Parts))
		}
	}
	if c.Explain && res.Window != nil {
		fmt.Fprintf(env.Stderr, "time window from %q: %s to %s\n", res.Window.Phrase, res.Window.From.Format("2006-01-02"), res.Window.To.Format("2006-01-02"))
	}
	return nil
}
