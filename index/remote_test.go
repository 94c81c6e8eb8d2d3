package index_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/index"
)

// fakeEmbedServer answers Ollama's and OpenAI's embedding APIs with the
// lexical embedder's vectors, and counts requests and texts.
func fakeEmbedServer(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	lex := index.NewLexical(64)
	var requests, texts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "fake-model" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		requests.Add(1)
		texts.Add(int64(len(req.Input)))
		vs, _ := lex.EmbedDocs(context.Background(), req.Input)
		switch r.URL.Path {
		case "/api/embed":
			json.NewEncoder(w).Encode(map[string]any{"embeddings": vs})
		case "/v1/embeddings":
			if r.Header.Get("Authorization") != "Bearer sekrit" {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			var data []map[string]any
			for i := len(vs) - 1; i >= 0; i-- { // out of order: index decides
				data = append(data, map[string]any{"embedding": vs[i], "index": i})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &requests, &texts
}

func TestRemoteEmbedders(t *testing.T) {
	srv, requests, texts := fakeEmbedServer(t)
	t.Setenv("FAKE_KEY", "sekrit")
	for _, tc := range []struct {
		name string
		cfg  config.Index
	}{
		{"ollama", config.Index{Embedder: "ollama", Model: "fake-model", URL: srv.URL, Batch: 2, Timeout: config.Duration(5e9)}},
		{"openai", config.Index{Embedder: "openai", Model: "fake-model", URL: srv.URL + "/v1", APIKeyEnv: "FAKE_KEY", Batch: 3, Timeout: config.Duration(5e9)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emb, err := index.NewEmbedder(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			f := newFixture(t)
			seedSmall(f)
			f.ix = f.open(index.Options{Embedder: emb})
			before := requests.Load()
			got := f.search(index.Query{Text: "secret token", Mode: index.ModeVector})
			if len(got) == 0 || got[0] != "constraints/never-commit-secrets" {
				t.Fatalf("vector search through %s: %v", tc.name, got)
			}
			// 4 memories in batches of 2 or 3, plus a probe and the query.
			if n := requests.Load() - before; n < 3 {
				t.Fatalf("%d requests: batching not used?", n)
			}
			st, _ := f.ix.Status(ctx)
			if st.Embedder.Name != tc.name || st.Embedder.Model != "fake-model" || st.Embedder.Dims != 64 {
				t.Fatalf("embedder recorded as %+v", st.Embedder)
			}
		})
	}
	if texts.Load() == 0 {
		t.Fatal("no texts embedded")
	}
}

func TestEmbedderDownFallsBackToText(t *testing.T) {
	srv, _, _ := fakeEmbedServer(t)
	cfg := config.Index{Embedder: "ollama", Model: "fake-model", URL: srv.URL, Batch: 8, Timeout: config.Duration(5e9)}
	emb, _ := index.NewEmbedder(cfg)
	f := newFixture(t)
	seedSmall(f)
	f.ix = f.open(index.Options{Embedder: emb})
	f.search(index.Query{Text: "bleve"}) // built with vectors
	srv.Close()
	f.remember("decision", "Adopt ripgrep for code search", "ripgrep is fast.")
	for i := 0; i < 2; i++ {
		res, err := search(ctx, []*index.Index{f.ix}, index.Query{Text: "ripgrep code search"})
		if err != nil {
			t.Fatalf("search with the embedder down: %v", err)
		}
		if res.Mode != index.ModeText || len(res.Items) == 0 || res.Items[0].URI.Path != "decisions/adopt-ripgrep-for-code-search" {
			t.Fatalf("fallback result: mode %s hits %v", res.Mode, res.Items)
		}
		if !strings.Contains(strings.Join(res.Warnings, "\n"), "embedder unavailable") {
			t.Fatalf("no warning: %v", res.Warnings)
		}
	}
	n := 0
	for _, w := range f.warns {
		if strings.Contains(w, "embedder unavailable") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("warned %d times, want once: %v", n, f.warns)
	}
	st, _ := f.ix.Status(ctx)
	if st.NoVector != 1 {
		t.Fatalf("memories without vectors = %d, want 1", st.NoVector)
	}
}

// An embedder that is down when the cache is first built (a new clone,
// `index.embedder: ollama` with no server) means one warning and
// full-text ranking, in this process and the next, and vectors once the
// server is back.
func TestEmbedderDownAtBuild(t *testing.T) {
	srv, _, _ := fakeEmbedServer(t)
	url := srv.URL
	srv.Close()
	cfg := config.Index{Embedder: "ollama", Model: "fake-model", URL: url, Batch: 8, Timeout: config.Duration(5e9)}
	f := newFixture(t)
	seedSmall(f)
	for run := 0; run < 2; run++ { // two processes, one after the other
		emb, _ := index.NewEmbedder(cfg)
		f.warns = nil
		f.ix = f.open(index.Options{Embedder: emb})
		for i := 0; i < 2; i++ {
			res, err := search(ctx, []*index.Index{f.ix}, index.Query{Text: "secret token"})
			if err != nil {
				t.Fatalf("run %d: search with the embedder down: %v", run, err)
			}
			if res.Mode != index.ModeText || len(res.Items) == 0 || res.Items[0].URI.Path != "constraints/never-commit-secrets" {
				t.Fatalf("run %d: fallback result: mode %s hits %v", run, res.Mode, res.Items)
			}
		}
		n := 0
		for _, w := range f.warns {
			if strings.Contains(w, "embedder unavailable") {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("run %d: warned %d times about the embedder, want once: %q", run, n, f.warns)
		}
	}
	// The server is back: the next search ranks with vectors again.
	srv2, _, _ := fakeEmbedServer(t)
	cfg.URL = srv2.URL
	emb, _ := index.NewEmbedder(cfg)
	f.ix = f.open(index.Options{Embedder: emb})
	res, err := search(ctx, []*index.Index{f.ix}, index.Query{Text: "secret token", Mode: index.ModeVector})
	if err != nil || res.Mode != index.ModeVector || len(res.Items) == 0 {
		t.Fatalf("embedder back: %v, %+v", err, res)
	}
}
