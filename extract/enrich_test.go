package extract

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// fakeModel is a loopback stand-in for a model endpoint: it answers in
// the provider's wire format and records every prompt it was sent.
type fakeModel struct {
	mu      sync.Mutex
	prompts []string
	headers []http.Header
	answer  func(prompt string) string // the model's text
	status  int
	delay   time.Duration
}

func (f *fakeModel) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.prompts)
}

func (f *fakeModel) serve(provider string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req struct {
			Prompt   string `json:"prompt"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(raw, &req)
		prompt := req.Prompt
		if len(req.Messages) > 0 {
			prompt = req.Messages[0].Content
		}
		f.mu.Lock()
		f.prompts = append(f.prompts, prompt)
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		if f.delay > 0 {
			time.Sleep(f.delay)
		}
		if f.status != 0 {
			http.Error(w, "model overloaded", f.status)
			return
		}
		text := f.answer(prompt)
		var body any
		switch provider {
		case "ollama":
			if r.URL.Path != "/api/generate" {
				http.NotFound(w, r)
				return
			}
			body = map[string]any{"response": text}
		case "anthropic":
			if r.URL.Path != "/v1/messages" {
				http.NotFound(w, r)
				return
			}
			body = map[string]any{"content": []map[string]string{{"type": "text", "text": text}}}
		default:
			if r.URL.Path != "/v1/chat/completions" {
				http.NotFound(w, r)
				return
			}
			body = map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": text}}}}
		}
		_ = json.NewEncoder(w).Encode(body)
	}))
}

func enrichCandidates() []Candidate {
	return []Candidate{
		{Kind: schema.KindDecision, Scope: schema.ScopeProject, Extractor: "decisions", Title: "We decided to go with bleve because it embeds",
			Body: "We decided to go with bleve because it embeds. The key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789."},
		{Kind: schema.KindConstraint, Scope: schema.ScopeProject, Extractor: "constraints", Title: "Always say thanks", Body: "Always say thanks."},
		{Kind: schema.KindPattern, Scope: schema.ScopeProject, Extractor: "constraints", Title: "Never call the payments API from tests",
			Body: "Never call the payments API from tests."},
	}
}

// goodAnswer retitles record 0, drops record 1 as noise and reclassifies
// record 2.
const goodAnswer = "Here you go:\n" + `{"records": [
 {"i": 0, "kind": "decision", "title": "Use bleve for search", "summary": "Bleve embeds in the binary.", "keep": true},
 {"i": 1, "kind": "constraint", "title": "Always say thanks", "keep": false},
 {"i": 2, "kind": "constraint", "title": "No payments API calls in tests", "summary": "Tests never call the payments API."},
 {"i": 9, "title": "out of range"}]}`

func TestEnrichProviders(t *testing.T) {
	t.Setenv("CAIRN_TEST_MODEL_KEY", "test-key-123")
	for _, provider := range []string{"ollama", "anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			fm := &fakeModel{answer: func(string) string { return goodAnswer }}
			srv := fm.serve(provider)
			defer srv.Close()
			url := srv.URL
			if provider == "openai" {
				url += "/v1"
			}
			e, err := NewEnricher(config.Enrich{Provider: provider, Model: "m", URL: url, APIKeyEnv: "CAIRN_TEST_MODEL_KEY"})
			if err != nil {
				t.Fatal(err)
			}
			red, _ := NewRedactor(nil)
			var cands []Candidate
			for _, c := range enrichCandidates() {
				cands = append(cands, redactCandidate(c, red))
			}
			got, err := e.Enrich(context.Background(), cands)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Title != "Use bleve for search" || got[0].Summary != "Bleve embeds in the binary." ||
				got[1].Kind != schema.KindConstraint || got[1].Title != "No payments API calls in tests" {
				t.Fatalf("enriched: %+v", got)
			}
			if strings.Contains(fm.prompts[0], "sk-ant-") {
				t.Fatal("the model was sent a secret")
			}
			switch provider {
			case "anthropic":
				if fm.headers[0].Get("x-api-key") != "test-key-123" {
					t.Fatalf("anthropic key header: %v", fm.headers[0])
				}
			case "openai":
				if fm.headers[0].Get("Authorization") != "Bearer test-key-123" {
					t.Fatalf("openai auth header: %v", fm.headers[0])
				}
			}
		})
	}
}

func TestEnrichFailureKeepsDeterministicResult(t *testing.T) {
	session := func() *transcript.Session {
		s, err := transcript.Parse(strings.NewReader(
			`{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-11-01T10:00:00Z","message":{"role":"user","content":"We decided to use bleve for search because it embeds in the binary."}}
{"type":"user","sessionId":"s1","uuid":"u2","timestamp":"2026-11-01T10:01:00Z","message":{"role":"user","content":"Never call the payments API from tests."}}`), "s1.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	red, _ := NewRedactor(nil)
	base, err := CaptureSession(context.Background(), session(), Options{Redactor: red, DryRun: true})
	if err != nil || len(base.Candidates) < 2 {
		t.Fatalf("deterministic capture: %v %+v", err, base)
	}
	tests := []struct {
		name string
		fm   *fakeModel
	}{
		{"http error", &fakeModel{status: http.StatusServiceUnavailable}},
		{"no json", &fakeModel{answer: func(string) string { return "I cannot help with that." }}},
		{"wrong json", &fakeModel{answer: func(string) string { return `{"records": "nope"}` }}},
		{"timeout", &fakeModel{delay: 800 * time.Millisecond, answer: func(string) string { return goodAnswer }}},
		{"malformed fields", &fakeModel{answer: func(string) string {
			return `{"records":[{"i":0,"title":"a\nb","kind":"profile"},{"i":1,"title":"` + strings.Repeat("x", 200) + `"}]}`
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.fm.serve("ollama")
			defer srv.Close()
			e, _ := NewEnricher(config.Enrich{Provider: "ollama", Model: "m", URL: srv.URL, Timeout: config.Duration(300 * time.Millisecond)})
			var log strings.Builder
			got, err := CaptureSession(context.Background(), session(), Options{Redactor: red, DryRun: true, Enricher: e, Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(base.Candidates)
			b, _ := json.Marshal(got.Candidates)
			if string(a) != string(b) {
				t.Fatalf("enrichment failure changed the result:\n%s\n%s", a, b)
			}
			if tt.name != "malformed fields" && !strings.Contains(log.String(), "keeping the deterministic result") {
				t.Fatalf("failure not logged: %q", log.String())
			}
			if n := tt.fm.calls(); n != 1 {
				t.Fatalf("model asked %d times", n)
			}
		})
	}
}

func TestEnrichClaudeCLI(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\n[ \"$1\" = -p ] || exit 3\ncat <<'JSON'\n" + goodAnswer + "\nJSON\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	e, err := NewEnricher(config.Enrich{Provider: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Enrich(context.Background(), enrichCandidates())
	if err != nil || len(got) != 2 || got[0].Title != "Use bleve for search" {
		t.Fatalf("claude -p enrichment: %v %+v", err, got)
	}
}
