package index

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/cairnmem/cairn/config"
)

// Embedder turns text into vectors. Implementations return unit-length
// vectors so that a dot product is the cosine similarity.
type Embedder interface {
	// Info identifies the embedder; vectors made by another are re-made.
	Info() EmbedderInfo
	// EmbedDocs returns one vector per text, in order.
	EmbedDocs(ctx context.Context, texts []string) ([][]float32, error)
	// EmbedQuery returns the vector of a query. idf gives the inverse
	// document frequency of an index term in the corpus being searched;
	// embedders with a model of their own ignore it.
	EmbedQuery(ctx context.Context, text string, idf IDF) ([]float32, error)
}

// noiseFloor is implemented by embedders whose similarities carry noise
// below some level; weaker vector candidates are dropped.
type noiseFloor interface{ MinCosine() float32 }

// IDF returns the inverse document frequency of an analyzed term.
type IDF func(term string) float64

const noneName = "none"

// NewEmbedder builds the embedder a vault's configuration names.
func NewEmbedder(cfg config.Index) (Embedder, error) {
	timeout := time.Duration(cfg.Timeout)
	switch cfg.Embedder {
	case "", lexicalName:
		return NewLexical(cfg.Dims), nil
	case "ollama":
		url := cfg.URL
		if url == "" {
			url = "http://localhost:11434"
		}
		return &httpEmbedder{kind: "ollama", url: url, model: cfg.Model, batch: cfg.Batch, timeout: timeout}, nil
	case "openai":
		url := cfg.URL
		if url == "" {
			url = "https://api.openai.com/v1"
		}
		return &httpEmbedder{kind: "openai", url: url, model: cfg.Model, batch: cfg.Batch, timeout: timeout, apiKey: os.Getenv(cfg.APIKeyEnv)}, nil
	case noneName:
		return nil, nil
	}
	return nil, fmt.Errorf("unknown embedder %q", cfg.Embedder)
}
