package vault

import (
	"fmt"
	"time"

	"github.com/cairnmem/cairn/schema"
	git "github.com/go-git/go-git/v5"
)

// BlameLine is one line of a memory with the commit that last changed it.
type BlameLine struct {
	Line    int       `json:"line"`
	Hash    string    `json:"hash"`
	Time    time.Time `json:"time"`
	Author  string    `json:"author"`
	Session string    `json:"session,omitempty"`
	Source  string    `json:"source,omitempty"`
	Text    string    `json:"text"`
}

// Blame attributes each committed line of the memory at uri to the commit,
// time and agent session that last changed it.
func (v *Vault) Blame(uri schema.URI) ([]BlameLine, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	head, err := v.resolve(repo, "")
	if err != nil {
		return nil, err
	}
	if _, err := head.File(uri.RelPath()); err != nil {
		return nil, fmt.Errorf("%w: %s is not committed", ErrNotFound, uri)
	}
	res, err := git.Blame(head, uri.RelPath())
	if err != nil {
		return nil, fmt.Errorf("blame %s: %w", uri, err)
	}
	commits := map[string]Commit{}
	out := make([]BlameLine, 0, len(res.Lines))
	for i, l := range res.Lines {
		h := l.Hash.String()
		c, ok := commits[h]
		if !ok {
			if co, err := repo.CommitObject(l.Hash); err == nil {
				c = newCommit(co)
			}
			commits[h] = c
		}
		out = append(out, BlameLine{Line: i + 1, Hash: h, Time: l.Date, Author: l.AuthorName, Session: c.Session, Source: c.Source, Text: l.Text})
	}
	return out, nil
}
