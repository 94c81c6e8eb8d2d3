package extract

import (
	"context"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

// IndexLookup finds similar memories with the search index of the vaults.
type IndexLookup struct {
	R *retrieve.Retriever
}

var _ Lookup = IndexLookup{}

// Similar returns the memories of the candidate's kind that best match it,
// with their bodies read from the files.
func (l IndexLookup) Similar(ctx context.Context, c Candidate) ([]Existing, error) {
	q := c.Title + " " + clip(oneLine(c.Body), 300)
	res, err := l.R.Search(ctx, retrieve.Request{Query: q, Kinds: []schema.Kind{c.Kind}, Limit: 5, Mode: index.ModeText,
		Statuses: []schema.Status{schema.StatusActive, schema.StatusOpen, schema.StatusDone}})
	if err != nil {
		return nil, err
	}
	var out []Existing
	for _, it := range res.Items {
		e := Existing{URI: it.URI, Kind: it.Kind, Title: it.Title, Status: it.Status, Updated: it.Updated}
		for _, ix := range l.R.Indexes() {
			if ix.Scope() == it.URI.Scope {
				if m, err := ix.Vault().Read(it.URI); err == nil {
					e.Body = m.Body
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}
