package serve

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// maxTree bounds a tree listing; a viewer pages by prefix beyond it.
const maxTree = 20000

// TreeOutput is the memories under a prefix, as cards in URI order.
type TreeOutput struct {
	Cards     []Card `json:"cards"`
	Truncated bool   `json:"truncated,omitempty"`
}

// Tree lists memories whose URI starts with prefix ("" for all,
// "mem://project/decisions/" for one directory), from the index so it
// stays fast on large vaults.
func (s *Service) Tree(ctx context.Context, prefix string) (*TreeOutput, error) {
	out := &TreeOutput{Cards: []Card{}}
	for _, sc := range s.scopes() {
		ix, err := s.App.Index(s.vault(sc))
		if err != nil {
			return nil, err
		}
		err = ix.View(ctx, func(v *index.View) error {
			docs, err := v.List(index.Query{Limit: maxTree + 1})
			if err != nil {
				return err
			}
			for _, d := range docs {
				u := d.URI.String()
				if prefix != "" && !strings.HasPrefix(u, prefix) {
					continue
				}
				out.Cards = append(out.Cards, Card{URI: u, Kind: string(d.Kind), Title: d.Title, Summary: d.Summary, Status: string(d.Status),
					Tags: d.Tags, Updated: d.Updated})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sortCards(out.Cards)
	if len(out.Cards) > maxTree {
		out.Cards, out.Truncated = out.Cards[:maxTree], true
	}
	return out, nil
}

// VersionDiff is what changed in a memory between two revisions.
type VersionDiff struct {
	URI   string `json:"uri"`
	From  string `json:"from"`
	To    string `json:"to"`
	Patch string `json:"patch"`
}

// Diff compares a memory between two revisions; an empty from means the
// first parent of to, an empty to means HEAD.
func (s *Service) Diff(uri, from, to string) (*VersionDiff, error) {
	u, v, err := s.resolve(uri)
	if err != nil {
		return nil, err
	}
	if to == "" {
		to = "HEAD"
	}
	if from == "" {
		from = to + "~1"
	}
	fromHash, err := v.ResolveCommit(from)
	if err != nil {
		// The memory's first version: compare with nothing.
		fromHash = ""
	}
	toHash, err := v.ResolveCommit(to)
	if err != nil {
		return nil, notFound(err)
	}
	out := &VersionDiff{URI: u.String(), From: fromHash, To: toHash}
	if fromHash == "" {
		data, err := v.Show(toHash, u)
		if err != nil {
			return nil, notFound(err)
		}
		var b strings.Builder
		b.WriteString("--- /dev/null\n+++ b/" + u.RelPath() + "\n")
		for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
		out.Patch = b.String()
		return out, nil
	}
	diffs, err := v.Diff(vault.DiffOptions{From: fromHash, To: toHash, URI: &u})
	if err != nil {
		return nil, err
	}
	for _, d := range diffs {
		out.Patch += d.Patch
	}
	return out, nil
}

// Session is one agent session as the vault saw it: its commits and the
// memories they touched.
type Session struct {
	ID       string    `json:"id"`
	Agent    string    `json:"agent,omitempty"`
	First    time.Time `json:"first"`
	Last     time.Time `json:"last"`
	Commits  int       `json:"commits"`
	Memories []string  `json:"memories"`
	Summary  *Card     `json:"summary,omitempty"`
}

// Sessions lists the sessions named in commit trailers, newest first.
func (s *Service) Sessions(ctx context.Context, limit int) ([]Session, error) {
	limit = clamp(limit, 50, 500)
	by := map[string]*Session{}
	for _, sc := range s.scopes() {
		v := s.vault(sc)
		commits, err := v.Log(vault.LogOptions{Limit: 5000})
		if err != nil {
			return nil, err
		}
		for _, c := range commits {
			if c.Session == "" {
				continue
			}
			ss := by[c.Session]
			if ss == nil {
				ss = &Session{ID: c.Session, First: c.Time, Last: c.Time, Agent: c.Source}
				by[c.Session] = ss
			}
			ss.Commits++
			if c.Time.Before(ss.First) {
				ss.First = c.Time
			}
			if c.Time.After(ss.Last) {
				ss.Last = c.Time
			}
			files, err := v.CommitFiles(c.Hash)
			if err != nil {
				continue
			}
			for _, f := range files {
				if u, err := schema.URIFromRelPath(f, sc); err == nil && !contains(ss.Memories, u.String()) {
					ss.Memories = append(ss.Memories, u.String())
				}
			}
		}
	}
	tree, err := s.Tree(ctx, "")
	if err == nil {
		cards := map[string]Card{}
		for _, c := range tree.Cards {
			cards[c.URI] = c
		}
		for _, ss := range by {
			for _, u := range ss.Memories {
				if c, ok := cards[u]; ok && c.Kind == string(schema.KindSession) {
					c := c
					ss.Summary = &c
				}
			}
		}
	}
	out := make([]Session, 0, len(by))
	for _, ss := range by {
		sort.Strings(ss.Memories)
		out = append(out, *ss)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Last.After(out[j].Last) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
