package serve

import (
	"context"
	"errors"
	"fmt"
	"github.com/cairnmem/cairn/app"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Errors the surfaces map to protocol errors: the use cases' own, so an
// error means the same on every surface.
var (
	ErrBadRequest = app.ErrBadRequest
	ErrNotFound   = app.ErrNotFound
)

// Service is what the MCP tools and HTTP handlers call: one method per
// operation, each a call into the App's use cases or a thin composition
// of the domain packages.
type Service struct {
	Vaults map[schema.Scope]*vault.Vault // the vaults there were at the start; requests ask the App
	Agent  string                        // recorded as the source of writes: "mcp", "http"
	Now    func() time.Time
	// App opens the vaults and caches and runs the use cases.
	App *app.App
}

// NewService serves the given vaults (tests, benchmarks): nothing else is
// looked for on disk, so no user vault is created on first need.
func NewService(vaults map[schema.Scope]*vault.Vault, agent string) (*Service, error) {
	preset := map[schema.Scope]*vault.Vault{schema.ScopeProject: vaults[schema.ScopeProject], schema.ScopeUser: vaults[schema.ScopeUser]}
	var s *Service
	a := app.New(app.Options{Vaults: preset, Source: agent, Now: func() time.Time { return s.Now() }})
	s, err := ForApp(a)
	return s, err
}

// ForApp serves the use cases of a over the vaults that exist: the
// project vault and the user vault, either may be missing but not both.
func ForApp(a *app.App) (*Service, error) {
	vs, err := a.Vaults("")
	if err != nil {
		return nil, err
	}
	s := &Service{Vaults: map[schema.Scope]*vault.Vault{}, Agent: a.Source(), Now: time.Now, App: a}
	for _, v := range vs {
		s.Vaults[v.Scope] = v
	}
	return s, nil
}

// vault is a scope's vault as the App has it now: a user vault created
// on first need by a remember shows up in the next request; nil when
// there is none.
func (s *Service) vault(sc schema.Scope) *vault.Vault {
	v, err := s.App.VaultFor(sc)
	if err != nil {
		return nil
	}
	return v
}

func (s *Service) scopes() []schema.Scope {
	var out []schema.Scope
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		if s.vault(sc) != nil {
			out = append(out, sc)
		}
	}
	return out
}

// resolve parses a URI (mem://..., or a vault path meaning the project)
// and finds its vault.
func (s *Service) resolve(raw string) (schema.URI, *vault.Vault, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return schema.URI{}, nil, fmt.Errorf("%w: uri is required", ErrBadRequest)
	}
	u, err := schema.ParseURI(raw, schema.ScopeProject)
	if err != nil {
		return u, nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	v := s.vault(u.Scope)
	if v == nil {
		return u, nil, fmt.Errorf("%w: no %s vault", ErrNotFound, u.Scope)
	}
	return u, v, nil
}

func (s *Service) meta(v *vault.Vault, verb, session string) vault.CommitMeta {
	return s.App.Meta(verb, session)
}

// Card is a memory in a list: enough to choose, never the whole body.
type Card struct {
	URI     string    `json:"uri"`
	Kind    string    `json:"kind"`
	Title   string    `json:"title"`
	Summary string    `json:"summary,omitempty"`
	Score   float64   `json:"score,omitempty"`
	Status  string    `json:"status,omitempty"`
	Tags    []string  `json:"tags,omitempty"`
	Updated time.Time `json:"updated"`
	Note    string    `json:"note,omitempty"`
}

func cardOf(it retrieve.Item) Card {
	return Card{URI: it.URI.String(), Kind: string(it.Kind), Title: it.Title, Summary: it.Summary, Score: round(it.Score),
		Status: string(it.Status), Tags: it.Tags, Updated: it.Updated, Note: it.Note}
}

func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// SearchInput is a search request from any surface.
type SearchInput struct {
	Query   string   `json:"query" jsonschema:"what to look for, in plain words; empty lists the most recent memories"`
	Kinds   []string `json:"kinds,omitempty" jsonschema:"only these kinds: decision, constraint, preference, pattern, case, thread, session, outcome, event, reminder, profile"`
	Tags    []string `json:"tags,omitempty" jsonschema:"only memories carrying every one of these tags"`
	Since   string   `json:"since,omitempty" jsonschema:"only memories updated on or after this: a date (2026-01-31), an RFC 3339 time, or an age (36h, 7d, 2w, 3mo, 1y)"`
	Limit   int      `json:"limit,omitempty" jsonschema:"how many results, 1 to 50 (default 10)"`
	Session string   `json:"session,omitempty" jsonschema:"the agent session asking; what it was already shown ranks lower"`
}

// Search ranks memories of every vault.
func (s *Service) Search(ctx context.Context, in SearchInput) ([]Card, error) {
	req := retrieve.Request{Query: in.Query, Tags: in.Tags, Limit: clamp(in.Limit, 10, 50), Session: in.Session}
	for _, k := range in.Kinds {
		kind, err := schema.ParseKind(k)
		if err != nil {
			return nil, fmt.Errorf("%w: kinds: %v", ErrBadRequest, err)
		}
		req.Kinds = append(req.Kinds, kind)
	}
	if in.Since != "" {
		t, err := app.ParseWhen(in.Since, s.Now())
		if err != nil {
			return nil, fmt.Errorf("since: %w", err)
		}
		req.Since = t
	}
	res, err := s.App.Search(ctx, "", req)
	if err != nil {
		return nil, err
	}
	out := []Card{}
	for _, it := range res.Items {
		out = append(out, cardOf(it))
	}
	return out, nil
}

func clamp(n, def, max int) int {
	switch {
	case n <= 0:
		return def
	case n > max:
		return max
	}
	return n
}

// MemoryView is one memory at a tier, with its file and links.
type MemoryView struct {
	*schema.Memory
	Path     string   `json:"path"`
	L0       string   `json:"l0"`
	Overview string   `json:"overview,omitempty"`
	Tier     int      `json:"tier"`
	Raw      string   `json:"raw,omitempty"`
	Links    []string `json:"all_links,omitempty"`
	Head     string   `json:"head,omitempty"` // the vault commit the file was read at, for edits
}

// Get reads one memory: tier 0 the summary, 1 the overview, 2 all of it.
func (s *Service) Get(uri string, tier int, raw bool) (*MemoryView, error) {
	if tier < 0 || tier > 2 {
		return nil, fmt.Errorf("%w: tier must be 0, 1 or 2", ErrBadRequest)
	}
	u, v, err := s.resolve(uri)
	if err != nil {
		return nil, err
	}
	m, err := v.Read(u)
	if err != nil {
		return nil, notFound(err)
	}
	path, _ := v.PathOf(u)
	out := &MemoryView{Memory: m.Clone(), Path: path, L0: m.L0(), Tier: tier}
	if tier >= 1 {
		out.Overview = m.Overview()
	}
	if tier < 2 {
		out.Memory.Body = ""
	}
	out.Links, _ = m.AllLinks()
	if raw {
		data, err := v.ReadFile(u)
		if err != nil {
			return nil, notFound(err)
		}
		out.Raw = string(data)
		out.Head, _ = v.Head()
	}
	return out, nil
}

func notFound(err error) error {
	if errors.Is(err, vault.ErrNotFound) {
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return err
}

// ContextInput asks for a fresh context pack.
type ContextInput struct {
	Task    string `json:"task,omitempty" jsonschema:"what you are about to do; the pack favors memories relevant to it"`
	Budget  int    `json:"budget,omitempty" jsonschema:"tokens the pack may use, 200 to 8000 (default from cairn.yaml)"`
	Session string `json:"session,omitempty" jsonschema:"your session id; leaves out what this session was already shown"`
}

// ContextOutput is a pack as markdown, with the cards it holds.
type ContextOutput struct {
	Markdown string `json:"markdown"`
	Tokens   int    `json:"tokens"`
	Cards    []Card `json:"cards"`
}

// Context builds a context pack.
func (s *Service) Context(ctx context.Context, in ContextInput) (*ContextOutput, error) {
	if in.Budget != 0 && (in.Budget < 200 || in.Budget > 8000) {
		return nil, fmt.Errorf("%w: budget must be between 200 and 8000 tokens", ErrBadRequest)
	}
	session := extract.SanitizeLine(in.Session)
	p, err := s.App.Pack(ctx, "", retrieve.PackRequest{Task: in.Task, Budget: in.Budget, Session: session, OnlyNew: session != "", Record: session != ""}, time.Time{})
	if err != nil {
		return nil, err
	}
	out := &ContextOutput{Markdown: p.Markdown, Tokens: p.Tokens, Cards: []Card{}}
	for _, sec := range p.Sections {
		for _, it := range sec.Items {
			out.Cards = append(out.Cards, Card{URI: it.URI, Kind: it.Kind, Title: it.Title, Summary: it.Text, Score: round(it.Score), Updated: it.Updated, Note: it.Reason})
		}
	}
	return out, nil
}

// Related lists memories linked to or resembling one.
func (s *Service) Related(ctx context.Context, uri string, limit int) ([]Card, error) {
	u, _, err := s.resolve(uri)
	if err != nil {
		return nil, err
	}
	items, err := s.App.Related(ctx, u, clamp(limit, 10, 50))
	if err != nil {
		return nil, notFound(err)
	}
	out := []Card{}
	for _, it := range items {
		out = append(out, cardOf(it))
	}
	return out, nil
}

// History is the log of one memory, newest first.
func (s *Service) History(uri string, limit int) ([]vault.Commit, error) {
	u, _, err := s.resolve(uri)
	if err != nil {
		return nil, err
	}
	return s.App.History(&u, "", clamp(limit, 50, 500))
}

// Forget removes a memory in a commit; history keeps it.
func (s *Service) Forget(ctx context.Context, uri, why, session string) (string, error) {
	out, err := s.App.Forget(ctx, uri, why, session)
	if err != nil {
		return "", err
	}
	return out.Commit, nil
}

// sortCards orders cards by URI, for listings.
func sortCards(cs []Card) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].URI < cs[j].URI })
}
