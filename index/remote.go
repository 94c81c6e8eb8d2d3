package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// httpEmbedder calls an embedding server: Ollama's POST /api/embed
// ({model, input} → {embeddings}) or an OpenAI-compatible POST /embeddings
// ({model, input} → {data: [{embedding, index}]}).
type httpEmbedder struct {
	kind    string // ollama | openai
	url     string
	model   string
	apiKey  string
	batch   int
	timeout time.Duration
	dims    int // learned from the first response
	client  *http.Client
}

var _ Embedder = (*httpEmbedder)(nil)

// maxEmbedResponse bounds a server's answer; a few thousand floats per text.
const maxEmbedResponse = 64 << 20

func (e *httpEmbedder) Info() EmbedderInfo {
	return EmbedderInfo{Name: e.kind, Model: e.model, Dims: e.dims}
}

func (e *httpEmbedder) EmbedDocs(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		end := min(start+e.batch, len(texts))
		vs, err := e.call(ctx, texts[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

func (e *httpEmbedder) EmbedQuery(ctx context.Context, text string, _ IDF) ([]float32, error) {
	vs, err := e.call(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (e *httpEmbedder) call(ctx context.Context, texts []string) ([][]float32, error) {
	if e.client == nil {
		e.client = &http.Client{Timeout: e.timeout}
	}
	endpoint := strings.TrimRight(e.url, "/") + "/api/embed"
	if e.kind == "openai" {
		endpoint = strings.TrimRight(e.url, "/") + "/embeddings"
	}
	body, _ := json.Marshal(map[string]any{"model": e.model, "input": texts})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.apiKey)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) || strings.Contains(err.Error(), "connection refused") {
			return nil, fmt.Errorf("%w: %s at %s: %v", ErrEmbedderUnavailable, e.kind, e.url, err)
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrEmbedderUnavailable, e.kind, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxEmbedResponse))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: read response: %v", ErrEmbedderUnavailable, e.kind, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s %s: HTTP %d: %s", ErrEmbedderUnavailable, e.kind, endpoint, resp.StatusCode, firstLine(string(data)))
	}
	vs, err := e.decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEmbedderUnavailable, e.kind, err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %s returned %d vectors for %d texts", ErrEmbedderUnavailable, e.kind, len(vs), len(texts))
	}
	for _, v := range vs {
		if e.dims == 0 {
			e.dims = len(v)
		}
		if len(v) != e.dims || len(v) == 0 {
			return nil, fmt.Errorf("%w: %s returned a %d-dimensional vector, expected %d", ErrEmbedderUnavailable, e.kind, len(v), e.dims)
		}
		normalize(v)
	}
	return vs, nil
}

func (e *httpEmbedder) decode(data []byte) ([][]float32, error) {
	if e.kind == "ollama" {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("decode response: %v", err)
		}
		return r.Embeddings, nil
	}
	var r struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode response: %v", err)
	}
	out := make([][]float32, len(r.Data))
	for i, d := range r.Data {
		idx := d.Index
		if idx < 0 || idx >= len(out) {
			idx = i
		}
		out[idx] = d.Embedding
	}
	return out, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
