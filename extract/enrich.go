package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
)

// Enricher rewrites candidates' titles and summaries with a model. It may
// fail in any way; the caller keeps the deterministic candidates then.
type Enricher interface {
	Enrich(ctx context.Context, cands []Candidate) ([]Candidate, error)
}

// NewEnricher builds the enricher cairn.yaml configures, or nil when
// enrichment is off.
func NewEnricher(cfg config.Enrich) (Enricher, error) {
	timeout := time.Duration(cfg.Timeout)
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	e := &llm{provider: cfg.Provider, model: cfg.Model, url: strings.TrimRight(cfg.URL, "/"), timeout: timeout}
	if cfg.APIKeyEnv != "" {
		e.apiKey = os.Getenv(cfg.APIKeyEnv)
	}
	switch cfg.Provider {
	case "", "none":
		return nil, nil
	case "claude":
		e.command = "claude"
	case "ollama":
		if e.url == "" {
			e.url = "http://localhost:11434"
		}
	case "anthropic":
		if e.url == "" {
			e.url = "https://api.anthropic.com"
		}
		if e.apiKey == "" {
			e.apiKey = os.Getenv("ANTHROPIC_API_KEY")
		}
	case "openai":
		if e.url == "" {
			e.url = "https://api.openai.com/v1"
		}
		if e.apiKey == "" {
			e.apiKey = os.Getenv("OPENAI_API_KEY")
		}
	default:
		return nil, fmt.Errorf("unknown enrichment provider %q", cfg.Provider)
	}
	return e, nil
}

type llm struct {
	provider, model, url, apiKey, command string
	timeout                               time.Duration
}

const enrichPrompt = `You tidy memory records that a tool extracted from a coding-agent session.
For each record, write a precise title (at most 80 characters) and a one-sentence summary.
Classify it: keep its kind or correct it to one of decision, constraint, pattern, case, thread;
set "keep" to false only when the record is chit-chat or noise nobody would want to remember.
Keep only facts present in the record; never invent. Answer with JSON only:
{"records": [{"i": 0, "kind": "decision", "title": "...", "summary": "...", "keep": true}]}

Records:
`

type enrichRecord struct {
	I       int    `json:"i"`
	Kind    string `json:"kind,omitempty"`
	Title   string `json:"title"`
	Summary string `json:"summary,omitempty"`
	Body    string `json:"body,omitempty"`
	Keep    *bool  `json:"keep,omitempty"`
}

// reclassifiable are the kinds enrichment may move a record between: all
// project-scoped and merged or superseded the same way a person would.
var reclassifiable = map[schema.Kind]bool{schema.KindDecision: true, schema.KindConstraint: true, schema.KindPattern: true,
	schema.KindCase: true, schema.KindThread: true}

func (e *llm) Enrich(ctx context.Context, cands []Candidate) ([]Candidate, error) {
	var recs []enrichRecord
	for i, c := range cands {
		recs = append(recs, enrichRecord{I: i, Kind: string(c.Kind), Title: c.Title, Body: clip(c.Body, 1200)})
	}
	in, _ := json.Marshal(recs)
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	answer, err := e.ask(ctx, enrichPrompt+string(in))
	if err != nil {
		return nil, err
	}
	start, end := strings.IndexByte(answer, '{'), strings.LastIndexByte(answer, '}')
	if start < 0 || end <= start {
		return nil, errors.New("the model's answer holds no JSON object")
	}
	var out struct {
		Records []enrichRecord `json:"records"`
	}
	if err := json.Unmarshal([]byte(answer[start:end+1]), &out); err != nil {
		return nil, fmt.Errorf("the model's answer is not the JSON asked for: %w", err)
	}
	res := append([]Candidate(nil), cands...)
	drop := map[int]bool{}
	for _, r := range out.Records {
		if r.I < 0 || r.I >= len(res) {
			continue
		}
		// The session's own summary and outcome are not the model's to drop
		// or move; other records may be reclassified or dropped as noise.
		if res[r.I].URI == nil {
			if r.Keep != nil && !*r.Keep {
				drop[r.I] = true
				continue
			}
			if k := schema.Kind(strings.ToLower(strings.TrimSpace(r.Kind))); k != res[r.I].Kind && reclassifiable[k] && reclassifiable[res[r.I].Kind] {
				res[r.I].Kind = k
				res[r.I].Status = ""
				if k == schema.KindThread {
					res[r.I].Status = schema.StatusOpen
				}
			}
		}
		if t := strings.TrimSpace(r.Title); t != "" && len(t) <= 120 && !strings.ContainsAny(t, "\n\r") {
			res[r.I].Title = t
		}
		if s := strings.TrimSpace(r.Summary); s != "" && len(s) <= 300 && !strings.ContainsAny(s, "\n\r") && res[r.I].URI == nil {
			res[r.I].Summary = s
		}
	}
	if len(drop) > 0 {
		kept := res[:0]
		for i, c := range res {
			if !drop[i] {
				kept = append(kept, c)
			}
		}
		res = kept
	}
	return res, nil
}

// ask sends a prompt to the configured model and returns its text.
func (e *llm) ask(ctx context.Context, prompt string) (string, error) {
	if e.command != "" {
		cmd := exec.CommandContext(ctx, e.command, "-p", prompt)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s -p: %v: %s", e.command, err, firstLineOf(errb.String()))
		}
		return out.String(), nil
	}
	var endpoint string
	var body any
	header := http.Header{"Content-Type": {"application/json"}}
	switch e.provider {
	case "ollama":
		endpoint = e.url + "/api/generate"
		body = map[string]any{"model": e.model, "prompt": prompt, "stream": false, "format": "json"}
	case "anthropic":
		endpoint = e.url + "/v1/messages"
		header.Set("x-api-key", e.apiKey)
		header.Set("anthropic-version", "2023-06-01")
		body = map[string]any{"model": e.model, "max_tokens": 2048, "messages": []map[string]string{{"role": "user", "content": prompt}}}
	default:
		endpoint = e.url + "/chat/completions"
		if e.apiKey != "" {
			header.Set("Authorization", "Bearer "+e.apiKey)
		}
		body = map[string]any{"model": e.model, "messages": []map[string]string{{"role": "user", "content": prompt}}}
	}
	data, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s: %w", e.provider, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: HTTP %d: %s", e.provider, resp.StatusCode, firstLineOf(string(raw)))
	}
	var r struct {
		Response string `json:"response"` // ollama
		Content  []struct {
			Text string `json:"text"`
		} `json:"content"` // anthropic
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"` // openai
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("%s: undecodable answer: %w", e.provider, err)
	}
	switch {
	case r.Response != "":
		return r.Response, nil
	case len(r.Content) > 0:
		return r.Content[0].Text, nil
	case len(r.Choices) > 0:
		return r.Choices[0].Message.Content, nil
	}
	return "", fmt.Errorf("%s: empty answer", e.provider)
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return clip(s, 200)
}
