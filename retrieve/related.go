package retrieve

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// Related walks from a memory to its neighbours: what it links to, what
// links to it, what it supersedes or is superseded by, and memories that
// share its tags, strongest relation first.
func (r *Retriever) Related(ctx context.Context, uri schema.URI, limit int) ([]Item, error) {
	if limit <= 0 {
		limit = 10
	}
	var out []Item
	err := r.views(ctx, func(vs []*index.View) error {
		n := &neighbours{vs: vs, from: uri.String(), items: map[string]*Item{}}
		self, err := n.docs([]schema.URI{uri})
		if err != nil {
			return err
		}
		me, ok := self[uri.String()]
		if !ok {
			return fmt.Errorf("%w: no memory at %s (if the file exists, `cairn doctor` says why it is not valid)", index.ErrNotIndexed, uri)
		}
		if err := n.linkedFrom(me); err != nil {
			return err
		}
		for _, v := range vs {
			if err := n.inView(v, me); err != nil {
				return err
			}
		}
		list := slices.Collect(maps.Values(n.items))
		sortItems(list)
		for _, it := range list[:min(limit, len(list))] {
			out = append(out, *it)
		}
		return nil
	})
	return out, err
}

// neighbours gathers the memories related to the one at from, each with
// its summed strength and the relations that make it a neighbour.
type neighbours struct {
	vs    []*index.View
	from  string
	items map[string]*Item
}

// docs finds memories in every view.
func (n *neighbours) docs(uris []schema.URI) (map[string]index.Doc, error) {
	all := map[string]index.Doc{}
	for _, v := range n.vs {
		ds, err := v.Docs(uris)
		if err != nil {
			return nil, err
		}
		maps.Copy(all, ds)
	}
	return all, nil
}

// add counts d as a neighbour for a reason, with a strength.
func (n *neighbours) add(d index.Doc, score float64, why string) {
	key := d.URI.String()
	if key == n.from {
		return
	}
	it, ok := n.items[key]
	if !ok {
		it = &Item{Doc: d, Scope: d.URI.Scope}
		n.items[key] = it
	}
	it.Score += score
	it.Parts = append(it.Parts, Part{Name: why, Value: 1, Effect: score})
	if it.Note == "" {
		it.Note = why
	} else if !strings.Contains(it.Note, why) {
		it.Note += ", " + why
	}
}

// linkedFrom adds what me names: its links, what it supersedes and what
// supersedes it.
func (n *neighbours) linkedFrom(me index.Doc) error {
	var out []schema.URI
	for _, l := range append(append([]string{}, me.Links...), me.Supersedes...) {
		if u, err := schema.ParseURI(l, me.URI.Scope); err == nil {
			out = append(out, u)
		}
	}
	if me.SupersededBy != "" {
		if u, err := schema.ParseURI(me.SupersededBy, me.URI.Scope); err == nil {
			out = append(out, u)
		}
	}
	linked, err := n.docs(out)
	if err != nil {
		return err
	}
	for _, d := range linked {
		var why string
		switch {
		case d.URI.String() == me.SupersededBy:
			why = "supersedes it"
		case slices.Contains(me.Supersedes, d.URI.String()):
			why = "superseded by it"
		default:
			why = "it links here"
		}
		n.add(d, 1, why)
	}
	return nil
}

// inView adds what one view relates to me: its wiki links, back links,
// memories sharing a tag, and memories of the same session.
func (n *neighbours) inView(v *index.View, me index.Doc) error {
	if len(me.Wiki) > 0 {
		byName, err := v.ByName(me.Wiki)
		if err != nil {
			return err
		}
		for _, name := range me.Wiki {
			if d, ok := byName[name]; ok {
				n.add(d, 1, "it links here")
			} else if d, ok := byName[schema.Slugify(name)]; ok {
				n.add(d, 1, "it links here")
			}
		}
	}
	back, err := v.List(index.Query{LinksTo: []string{n.from}, Depth: 50})
	if err != nil {
		return err
	}
	for _, d := range back {
		n.add(d, 0.9, "links to it")
	}
	for _, tag := range me.Tags {
		same, err := v.List(index.Query{Tags: []string{tag}, Depth: 50})
		if err != nil {
			return err
		}
		for _, d := range same {
			n.add(d, 0.3, "shares tag "+tag)
		}
	}
	if me.Session != "" {
		// A view that cannot list costs the session relation only.
		all, err := v.List(index.Query{Depth: 200})
		if err != nil {
			return nil
		}
		for _, d := range all {
			if d.Session == me.Session {
				n.add(d, 0.2, "same session")
			}
		}
	}
	return nil
}
