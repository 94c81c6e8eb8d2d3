package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ErrInvalid marks a configuration file that cannot be used.
var ErrInvalid = errors.New("invalid configuration")

// FileName is the configuration file at the root of every vault.
const FileName = "cairn.yaml"

// Version is the configuration format this build writes and reads.
const Version = 1

// Config is the content of cairn.yaml.
type Config struct {
	Version  int      `yaml:"version"`
	Author   Author   `yaml:"author"`
	Index    Index    `yaml:"index"`
	Retrieve Retrieve `yaml:"retrieve"`
	Capture  Capture  `yaml:"capture"`
	Hooks    Hooks    `yaml:"hooks"`
	Serve    Serve    `yaml:"serve"`
}

// Serve configures `cairn serve`.
type Serve struct {
	// Addr is host:port to listen on; the default binds loopback only.
	Addr string `yaml:"addr"`
	// MaxBodyKB caps a request body.
	MaxBodyKB int `yaml:"max_body_kb"`
}

// Capture configures what cairn learns from agent sessions.
type Capture struct {
	// JournalDays and JournalMB bound the journal of hook events.
	JournalDays int `yaml:"journal_days"`
	JournalMB   int `yaml:"journal_mb"`
	// Redact lists extra patterns (regular expressions) to redact, on top
	// of the built-in provider keys, tokens and secret assignments.
	Redact []string `yaml:"redact"`
	Enrich Enrich   `yaml:"enrich"`
	// Review says whether captured memories reach context packs before a
	// person kept them (cairn review): optional (they do) or required
	// (they wait in the review inbox).
	Review string `yaml:"review"`
}

// ReviewRequired reports whether captured memories stay out of packs
// until a person keeps them.
func (c Capture) ReviewRequired() bool { return c.Review == "required" }

// Enrich configures an optional model that rewrites titles and summaries
// of captured memories. Off by default; on any failure the deterministic
// result stands.
type Enrich struct {
	Provider  string   `yaml:"provider"` // none, claude (claude -p), ollama, anthropic, openai
	Model     string   `yaml:"model"`
	URL       string   `yaml:"url"`
	APIKeyEnv string   `yaml:"api_key_env"`
	Timeout   Duration `yaml:"timeout"`
}

// Hooks configures the agent hooks.
type Hooks struct {
	// PromptBudget is the size of what a prompt hook may inject, in tokens.
	PromptBudget int `yaml:"prompt_budget"`
	// Capture turns capture on session stop and compaction on or off.
	Capture bool `yaml:"capture"`
}

// Retrieve weighs the signals that rank memories for an agent.
type Retrieve struct {
	Weights Weights `yaml:"weights"`
	// KindWeights rank kinds against each other (0..1): rules and choices
	// above transcripts of what happened.
	KindWeights map[string]float64 `yaml:"kind_weights"`
	// TagPenalties multiply the score of memories with a tag (0..1).
	TagPenalties map[string]float64 `yaml:"tag_penalties"`
	// SafeExclude lists tags whose memories --safe leaves out entirely.
	SafeExclude []string `yaml:"safe_exclude"`
	// PackBudget is a context pack's default size in tokens (about four
	// characters each).
	PackBudget int `yaml:"pack_budget"`
}

// Weights of the ranking signals. Relevance (text and vector ranks) is the
// base; recency, importance, access, kind and time-window match scale it;
// links add a share of a strong neighbour's score; novelty multiplies
// what a session has already been shown.
type Weights struct {
	Text       float64 `yaml:"text"`
	Vector     float64 `yaml:"vector"`
	Recency    float64 `yaml:"recency"`
	Importance float64 `yaml:"importance"`
	Access     float64 `yaml:"access"`
	Kind       float64 `yaml:"kind"`
	Links      float64 `yaml:"links"`
	Temporal   float64 `yaml:"temporal"`
	Novelty    float64 `yaml:"novelty"`
}

// Index configures the search cache and its embedder.
type Index struct {
	// Embedder makes the vectors: lexical (default, no model, no network),
	// ollama, openai (any OpenAI-compatible /v1/embeddings), or none.
	Embedder string `yaml:"embedder"`
	// Model names the embedding model for ollama and openai.
	Model string `yaml:"model"`
	// URL is the embedding server: default http://localhost:11434 for
	// ollama, https://api.openai.com/v1 for openai.
	URL string `yaml:"url"`
	// APIKeyEnv names the environment variable holding the API key
	// (openai); the key itself never goes in this file.
	APIKeyEnv string `yaml:"api_key_env"`
	// Dims is the lexical embedder's vector size.
	Dims int `yaml:"dims"`
	// Timeout bounds one request to an embedding server.
	Timeout Duration `yaml:"timeout"`
	// Batch is how many texts go in one embedding request.
	Batch int `yaml:"batch"`
}

// Author signs cairn's commits in this vault.
type Author struct {
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
}

// Default returns the configuration used when a field is not set.
func Default() Config {
	return Config{
		Version: Version,
		Index:   Index{Embedder: "lexical", Dims: 384, Timeout: Duration(10 * time.Second), Batch: 32, APIKeyEnv: "OPENAI_API_KEY"},
		Retrieve: Retrieve{
			Weights: Weights{Text: 1, Vector: 0.3, Recency: 0.15, Importance: 0.2, Access: 0.1, Kind: 0.2, Links: 0.25, Temporal: 1, Novelty: 0.5},
			KindWeights: map[string]float64{
				"constraint": 1, "decision": 0.9, "preference": 0.85, "profile": 0.85, "pattern": 0.8, "reminder": 0.8,
				"case": 0.7, "thread": 0.6, "session": 0.5, "event": 0.45, "outcome": 0.35,
			},
			TagPenalties: map[string]float64{"known-bad": 0.2, "deprecated": 0.5, "outdated": 0.5, "wrong": 0.2},
			SafeExclude:  []string{"known-bad", "unsafe", "wrong"},
			PackBudget:   2200,
		},
		Capture: Capture{JournalDays: 30, JournalMB: 100, Review: "optional", Enrich: Enrich{Provider: "none", Timeout: Duration(20 * time.Second)}},
		Hooks:   Hooks{PromptBudget: 700, Capture: true},
		Serve:   Serve{Addr: "127.0.0.1:7411", MaxBodyKB: 512},
	}
}

// Duration is a time.Duration written as "10s" in YAML.
type Duration time.Duration

// UnmarshalYAML parses "300ms", "10s", "2m".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: want a duration like 10s, found %q", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as text.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

var lineRe = regexp.MustCompile(`line (\d+): `)

// Parse decodes cairn.yaml content over the defaults. file names the file in
// errors.
func Parse(file string, data []byte) (Config, error) {
	cfg := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("%w: %s", ErrInvalid, locate(file, err))
	}
	if err := cfg.validate(); err != nil {
		return cfg, fmt.Errorf("%w: %s: %v", ErrInvalid, file, err)
	}
	return cfg, nil
}

// locate rewrites yaml.v3's "yaml: line N: msg" as "file:N: msg", one line
// per problem.
func locate(file string, err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if m := lineRe.FindStringSubmatch(l); m != nil {
			l = fmt.Sprintf("%s:%s: %s", file, m[1], strings.TrimPrefix(l, m[0]))
		} else {
			l = file + ": " + l
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func (c Config) validate() error {
	if c.Version != Version {
		return fmt.Errorf("version %d is not supported by this cairn (want %d)", c.Version, Version)
	}
	switch c.Index.Embedder {
	case "lexical", "none":
	case "ollama", "openai":
		if c.Index.Model == "" {
			return fmt.Errorf("index.model is required for the %s embedder", c.Index.Embedder)
		}
	default:
		return fmt.Errorf("index.embedder: unknown embedder %q (lexical, ollama, openai, none)", c.Index.Embedder)
	}
	if c.Index.Dims < 16 || c.Index.Dims > 4096 {
		return fmt.Errorf("index.dims must be between 16 and 4096, found %d", c.Index.Dims)
	}
	if c.Index.Batch < 1 {
		return fmt.Errorf("index.batch must be at least 1")
	}
	w := c.Retrieve.Weights
	for name, v := range map[string]float64{"text": w.Text, "vector": w.Vector, "recency": w.Recency, "importance": w.Importance,
		"access": w.Access, "kind": w.Kind, "links": w.Links, "temporal": w.Temporal, "novelty": w.Novelty} {
		if v < 0 || v > 10 {
			return fmt.Errorf("retrieve.weights.%s must be between 0 and 10, found %v", name, v)
		}
	}
	for tag, v := range c.Retrieve.TagPenalties {
		if v < 0 || v > 1 {
			return fmt.Errorf("retrieve.tag_penalties.%s must be between 0 and 1, found %v", tag, v)
		}
	}
	switch c.Capture.Review {
	case "", "optional", "required":
	default:
		return fmt.Errorf("capture.review: %q is neither optional nor required", c.Capture.Review)
	}
	switch c.Capture.Enrich.Provider {
	case "", "none", "claude":
	case "ollama", "anthropic", "openai":
		if c.Capture.Enrich.Model == "" {
			return fmt.Errorf("capture.enrich.model is required for the %s provider", c.Capture.Enrich.Provider)
		}
	default:
		return fmt.Errorf("capture.enrich.provider: unknown provider %q (none, claude, ollama, anthropic, openai)", c.Capture.Enrich.Provider)
	}
	for i, p := range c.Capture.Redact {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("capture.redact[%d]: %v", i, err)
		}
	}
	if c.Retrieve.PackBudget < 100 || c.Retrieve.PackBudget > 100000 {
		return fmt.Errorf("retrieve.pack_budget must be between 100 and 100000 tokens, found %d", c.Retrieve.PackBudget)
	}
	return nil
}

// Load reads the configuration file at path. A missing file yields the
// defaults.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), err
	}
	return Parse(path, data)
}
