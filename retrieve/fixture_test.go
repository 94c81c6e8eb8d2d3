package retrieve_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/cairnmem/cairn/vault/vaulttest"
)

var ctx = context.Background()

// now is the fixed clock of every retrieval test.
var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func daysAgo(n float64) time.Time { return now.Add(-time.Duration(n * 24 * float64(time.Hour))) }

type fixture struct {
	t       *testing.T
	project *vault.Vault
	user    *vault.Vault
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	vs := vaulttest.Vaults(t, func() time.Time { return now })
	f := &fixture{t: t, project: vs[schema.ScopeProject], user: vs[schema.ScopeUser]}
	return f
}

// mem describes a fixture memory.
type mem struct {
	path, title, body string
	kind              schema.Kind
	age               float64 // days before now
	scope             schema.Scope
	tags              []string
	pinned            bool
	status            schema.Status
	gate              string
	links             []string
	supersededBy      string
	session           string
	summary           string
	importance        *float64
}

func (f *fixture) add(ms ...mem) {
	f.t.Helper()
	by := map[schema.Scope][]mem{}
	for _, m := range ms {
		if m.scope == "" {
			m.scope = schema.ScopeProject
		}
		by[m.scope] = append(by[m.scope], m)
	}
	for sc, list := range by {
		v := f.project
		if sc == schema.ScopeUser {
			v = f.user
		}
		_, err := v.Update(ctx, vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error {
			for _, m := range list {
				x := schema.New(m.kind, m.title, daysAgo(m.age))
				x.Body, x.Tags, x.Pinned, x.Gate, x.Links, x.Summary = m.body, m.tags, m.pinned, m.gate, m.links, m.summary
				x.Importance = m.importance
				if m.status != "" {
					x.Status = m.status
				}
				x.SupersededBy = m.supersededBy
				if m.session != "" {
					x.Source = &schema.Source{Session: m.session}
				}
				x.URI = schema.URI{Scope: sc, Path: m.path}
				if err := tx.Put(x); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) retriever() *retrieve.Retriever {
	f.t.Helper()
	var ixs []*index.Index
	for _, v := range []*vault.Vault{f.project, f.user} {
		ix, err := index.Open(v, index.Options{})
		if err != nil {
			f.t.Fatal(err)
		}
		ixs = append(ixs, ix)
	}
	r := retrieve.New(ixs)
	r.Now = func() time.Time { return now }
	return r
}

func (f *fixture) search(req retrieve.Request) []retrieve.Item {
	f.t.Helper()
	res, err := f.retriever().Search(ctx, req)
	if err != nil {
		f.t.Fatal(err)
	}
	return res.Items
}

func paths(items []retrieve.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.URI.Path)
	}
	return out
}
