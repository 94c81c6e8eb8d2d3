package serve

import (
	"context"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/cairnmem/cairn/vault/vaulttest"
)

var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// newService makes a project and a user vault holding a few memories,
// with one memory edited twice by an agent session so it has history.
func newService(t testing.TB) *Service {
	t.Helper()
	vaults := vaulttest.Vaults(t, func() time.Time { return fixedNow })
	add := func(sc schema.Scope, kind schema.Kind, path, title, body, session string) {
		m := schema.New(kind, title, fixedNow)
		m.URI = schema.URI{Scope: sc, Path: path}
		m.Body = body
		if session != "" {
			m.Source = &schema.Source{Agent: "claude-code", Session: session}
		}
		if kind == schema.KindCase {
			// Written by capture, not yet kept by anyone: in the review inbox.
			m.Source.Extractor, m.Source.Rule = "gotchas", "problem explained: cause named, fixed, verified"
		}
		if _, err := vaults[sc].Update(context.Background(), vault.CommitMeta{Verb: "remember", Session: session, Source: "claude-code"}, func(tx *vault.Tx) error {
			return tx.Put(m)
		}); err != nil {
			t.Fatal(err)
		}
	}
	add(schema.ScopeProject, schema.KindDecision, "decisions/use-bleve", "Use bleve for full-text search", "Bleve is pure Go.\n\n## Details\n\nSQLite FTS5 needs cgo.", "sess-a")
	add(schema.ScopeProject, schema.KindConstraint, "constraints/never-push-main", "Never push to main directly", "Every change goes through review.", "sess-a")
	add(schema.ScopeProject, schema.KindCase, "cases/flaky-port", "Flaky port test in the server package", "The test raced on port 8080; port 0 fixed it.", "sess-b")
	add(schema.ScopeProject, schema.KindDecision, "decisions/use-bleve", "Use bleve for full-text search", "Bleve is pure Go and embeds in the binary.\n\n## Details\n\nSQLite FTS5 needs cgo.", "sess-b")
	add(schema.ScopeUser, schema.KindPreference, "preferences/table-tests", "Prefer table-driven tests", "Go tests are table-driven.", "")
	s, err := NewService(vaults, "test")
	if err != nil {
		t.Fatal(err)
	}
	s.Now = func() time.Time { return fixedNow }
	return s
}

func vaultLog(n int) vault.LogOptions { return vault.LogOptions{Limit: n} }
