package app

import (
	"context"
	"errors"
	"testing"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

func TestReadUseCases(t *testing.T) {
	bleve := memory(schema.KindDecision, "Use bleve for full-text search", "Bleve embeds in the binary; no server to run.", false)
	port := memory(schema.KindCase, "Flaky port test in the server package", "The test raced on port 8080; binding port 0 fixed it.", false)
	a, _ := projectApp(t, bleve, port)
	ctx := context.Background()

	res, err := a.Search(ctx, "", retrieve.Request{Query: "bleve server binary", Limit: 5, Session: "s1\nInjected: yes"})
	if err != nil || len(res.Items) == 0 || res.Items[0].URI != bleve.URI {
		t.Fatalf("search: %+v, %v", res, err)
	}
	if _, err := a.Search(ctx, schema.ScopeUser, retrieve.Request{Query: "bleve"}); err == nil {
		t.Fatal("searching a user vault that is not there succeeded")
	}

	p, err := a.Pack(ctx, "", retrieve.PackRequest{Task: "fix the flaky port test"}, t0.AddDate(0, 0, 1))
	if err != nil || !p.Now.Equal(t0.AddDate(0, 0, 1)) {
		t.Fatalf("pack: %v, %v", p, err)
	}
	found := false
	for _, s := range p.Sections {
		for _, it := range s.Items {
			found = found || it.URI == port.URI.String()
		}
	}
	if !found {
		t.Fatalf("the pack for the task lacks %s:\n%s", port.URI, p.Markdown)
	}

	h, err := a.History(&bleve.URI, "", 0)
	if err != nil || len(h) != 1 {
		t.Fatalf("history: %v, %v", h, err)
	}
	missing := schema.URI{Scope: schema.ScopeProject, Path: "decisions/never-was"}
	if _, err := a.History(&missing, "", 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("history of a memory that never was: %v", err)
	}
	if h, err := a.History(nil, schema.ScopeProject, 1); err != nil || len(h) != 1 {
		t.Fatalf("vault log: %v, %v", h, err)
	}
}
