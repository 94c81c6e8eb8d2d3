package app

import (
	"math"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
)

// Card is a memory in a list: enough to choose it, never the whole body.
// Every surface lists memories as cards.
type Card struct {
	URI     string    `json:"uri"`
	Kind    string    `json:"kind"`
	Title   string    `json:"title"`
	Summary string    `json:"summary,omitempty"`
	Score   float64   `json:"score,omitempty"`
	Scope   string    `json:"scope,omitempty"`
	Status  string    `json:"status,omitempty"`
	Tags    []string  `json:"tags,omitempty"`
	Updated time.Time `json:"updated"`
	// Note says why the memory is here: what retrieval did to it (the
	// memory it replaces, duplicates it stands for) or why a pack holds
	// it.
	Note string `json:"note,omitempty"`
	// Signals and Parts explain a search hit's score, when asked.
	Signals []index.Signal  `json:"signals,omitempty"`
	Parts   []retrieve.Part `json:"parts,omitempty"`
}

func cardOf(it retrieve.Item) Card {
	return Card{URI: it.URI.String(), Kind: string(it.Kind), Title: it.Title, Summary: it.Summary, Score: round(it.Score),
		Scope: string(it.Scope), Status: string(it.Status), Tags: it.Tags, Updated: it.Updated, Note: it.Note}
}

// round keeps four decimals: enough to order by, short to read.
func round(f float64) float64 { return math.Round(f*10000) / 10000 }

// clamp bounds a count: def when unset, at most max.
func clamp(n, def, max int) int {
	switch {
	case n <= 0:
		return def
	case n > max:
		return max
	}
	return n
}
