package retrieve

import (
	"context"
	"fmt"
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
		docs := func(uris []schema.URI) (map[string]index.Doc, error) {
			all := map[string]index.Doc{}
			for _, v := range vs {
				ds, err := v.Docs(uris)
				if err != nil {
					return nil, err
				}
				for k, d := range ds {
					all[k] = d
				}
			}
			return all, nil
		}
		self, err := docs([]schema.URI{uri})
		if err != nil {
			return err
		}
		me, ok := self[uri.String()]
		if !ok {
			return fmt.Errorf("%w: no memory at %s (if the file exists, `cairn doctor` says why it is not valid)", index.ErrNotIndexed, uri)
		}
		items := map[string]*Item{}
		add := func(d index.Doc, score float64, why string) {
			key := d.URI.String()
			if key == uri.String() {
				return
			}
			it, ok := items[key]
			if !ok {
				it = &Item{Doc: d, Scope: d.URI.Scope}
				items[key] = it
			}
			it.Score += score
			it.Parts = append(it.Parts, Part{Name: why, Value: 1, Effect: score})
			if it.Note == "" {
				it.Note = why
			} else if !strings.Contains(it.Note, why) {
				it.Note += ", " + why
			}
		}
		var out1 []schema.URI
		for _, l := range append(append([]string{}, me.Links...), me.Supersedes...) {
			if u, err := schema.ParseURI(l, me.URI.Scope); err == nil {
				out1 = append(out1, u)
			}
		}
		if me.SupersededBy != "" {
			if u, err := schema.ParseURI(me.SupersededBy, me.URI.Scope); err == nil {
				out1 = append(out1, u)
			}
		}
		linked, err := docs(out1)
		if err != nil {
			return err
		}
		for _, d := range linked {
			why := "links to it"
			switch {
			case d.URI.String() == me.SupersededBy:
				why = "supersedes it"
			case contains(me.Supersedes, d.URI.String()):
				why = "superseded by it"
			default:
				why = "it links here"
			}
			add(d, 1, why)
		}
		for _, v := range vs {
			if len(me.Wiki) > 0 {
				byName, err := v.ByName(me.Wiki)
				if err != nil {
					return err
				}
				for _, n := range me.Wiki {
					if d, ok := byName[n]; ok {
						add(d, 1, "it links here")
					} else if d, ok := byName[schema.Slugify(n)]; ok {
						add(d, 1, "it links here")
					}
				}
			}
			back, err := v.List(index.Query{LinksTo: []string{uri.String()}, Depth: 50})
			if err != nil {
				return err
			}
			for _, d := range back {
				add(d, 0.9, "links to it")
			}
			for _, tag := range me.Tags {
				same, err := v.List(index.Query{Tags: []string{tag}, Depth: 50})
				if err != nil {
					return err
				}
				for _, d := range same {
					add(d, 0.3, "shares tag "+tag)
				}
			}
			if me.Session != "" {
				for _, d := range mustList(v.List(index.Query{Depth: 200})) {
					if d.Session == me.Session {
						add(d, 0.2, "same session")
					}
				}
			}
		}
		var list []*Item
		for _, it := range items {
			list = append(list, it)
		}
		sortItems(list)
		for i, it := range list {
			if i == limit {
				break
			}
			out = append(out, *it)
		}
		return nil
	})
	return out, err
}

func mustList(ds []index.Doc, err error) []index.Doc {
	if err != nil {
		return nil
	}
	return ds
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
