package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// RememberInput is a memory a person or an agent asks cairn to keep.
type RememberInput struct {
	Kind       string
	Title      string
	Body       string
	Summary    string
	Tags       []string
	Importance float64 // 0: the kind's default
	Confidence float64 // 0: none recorded
	Pinned     bool
	Gate       string
	Triggers   []string
	Links      []string
	Session    string
	// Scope forces a vault; "" lets the kind decide (preferences and
	// profile go to the user vault, made on first need).
	Scope schema.Scope
	// URI writes exactly this file, as a new memory.
	URI string
	// New skips the kind's policy: a plain new file, even when a memory
	// on the same subject exists.
	New bool
}

// RememberOutput says what became of a remembered memory.
type RememberOutput struct {
	Op       string   `json:"op"` // create, merge, supersede, close, skip
	URI      string   `json:"uri,omitempty"`
	Target   string   `json:"target,omitempty"` // the existing memory involved
	Reason   string   `json:"reason"`
	Commit   string   `json:"commit,omitempty"`
	Redacted []string `json:"redacted,omitempty"` // rules that removed secrets
}

// Remember keeps a memory the way capture does: private spans removed,
// secrets redacted, checked for duplicates and merged or superseded by
// its kind's policy, committed. With New or URI it is a plain new file.
func (a *App) Remember(ctx context.Context, in RememberInput) (*RememberOutput, error) {
	c, err := a.candidate(in)
	if err != nil {
		return nil, err
	}
	if in.New || in.URI != "" {
		return a.create(ctx, c, in)
	}
	if c.Scope == schema.ScopeUser {
		if _, _, err := a.EnsureUser(ctx); err != nil {
			return nil, err
		}
	}
	o, err := a.CaptureOptions(extract.Meta{Agent: a.o.Source, Session: a.session(in.Session), Source: a.o.Source, CodeCommit: a.codeCommit()})
	if err != nil {
		return nil, err
	}
	o.Instructions = nil // a person asking to remember is never noise
	o.Now = a.now()
	out := &RememberOutput{Redacted: a.findings(c)}
	res, err := extract.CaptureCandidates(ctx, []extract.Candidate{c}, o)
	if err != nil {
		return nil, err
	}
	if len(res.Plan) > 0 {
		p := res.Plan[0]
		out.Op, out.Reason = string(p.Op), p.Reason
		if p.Target != nil {
			out.Target = p.Target.String()
		}
	}
	if res.Applied != nil {
		if len(res.Applied.Written) > 0 {
			out.URI = res.Applied.Written[0].String()
		}
		if len(res.Applied.Commits) > 0 {
			out.Commit = res.Applied.Commits[0]
		}
	}
	if out.URI == "" {
		out.URI = out.Target
	}
	return out, nil
}

// candidate checks a request and makes it a candidate for the policy.
func (a *App) candidate(in RememberInput) (extract.Candidate, error) {
	kind, err := schema.ParseKind(in.Kind)
	if err != nil {
		return extract.Candidate{}, badRequest("kind: %v", err)
	}
	title := strings.TrimSpace(in.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") || len(title) > 200 {
		return extract.Candidate{}, badRequest("title must be one line of 1 to 200 characters")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"importance", in.Importance}, {"confidence", in.Confidence}} {
		if f.v < 0 || f.v > 1 {
			return extract.Candidate{}, fmt.Errorf("%w: %s: must be between 0 and 1", schema.ErrInvalid, f.name)
		}
	}
	scope := in.Scope
	if scope == "" {
		scope = schema.ScopeProject
		if info, _ := kind.Info(); info.UserScoped {
			scope = schema.ScopeUser
		}
	}
	// What an agent remembers waits in the review inbox (it names an
	// extractor); what a person types at the command line is theirs.
	extractor := a.o.Source
	if extractor == "cli" {
		extractor = ""
	}
	return extract.Candidate{Kind: kind, Scope: scope, Title: title, Summary: strings.TrimSpace(in.Summary), Body: strings.TrimSpace(in.Body),
		Tags: clean(in.Tags), Importance: in.Importance, Confidence: in.Confidence, Extractor: extractor, Status: schema.DefaultStatus(kind),
		Gate: strings.TrimSpace(in.Gate), Pinned: in.Pinned, Triggers: clean(in.Triggers), Links: clean(in.Links)}, nil
}

// findings names the rules that will redact something of c.
func (a *App) findings(c extract.Candidate) []string {
	var out []string
	for _, f := range a.redactor(c.Scope).Scan(c.Title + "\n" + c.Summary + "\n" + c.Body) {
		out = append(out, f.Rule)
	}
	return out
}

// create writes c as a new file, at in.URI or where its kind and title
// say, past the policy: what a person asks for with --new or --uri.
func (a *App) create(ctx context.Context, c extract.Candidate, in RememberInput) (*RememberOutput, error) {
	var target schema.URI
	if in.URI != "" {
		var err error
		if target, err = schema.ParseArg(in.URI, c.Scope); err != nil {
			return nil, err
		}
		c.Scope = target.Scope
	}
	v, err := a.writeVault(ctx, c.Scope)
	if err != nil {
		return nil, err
	}
	out := &RememberOutput{Op: string(extract.OpCreate), Reason: "a new file, as asked", Redacted: a.findings(c)}
	meta := a.Meta("remember", in.Session)
	m := extract.MemoryOf(c, extract.Meta{Agent: a.o.Source, Session: meta.Session, CodeCommit: meta.CodeCommit, Source: a.o.Source}, a.now(), a.redactor(c.Scope))
	if target.IsZero() {
		info, _ := c.Kind.Info()
		target = schema.URI{Scope: v.Scope, Path: info.Dir + "/" + schema.Slugify(c.Title)}
	}
	m.URI = target
	if err := m.Validate(""); err != nil {
		return nil, err
	}
	res, err := v.Create(ctx, m, meta)
	if err != nil {
		return nil, err
	}
	out.URI, out.Commit = m.URI.String(), res.Commit
	return out, nil
}

// writeVault opens the vault a write goes to: the user vault is made on
// first need.
func (a *App) writeVault(ctx context.Context, scope schema.Scope) (*vault.Vault, error) {
	if scope == schema.ScopeUser {
		v, _, err := a.EnsureUser(ctx)
		return v, err
	}
	return a.Project()
}

// clean trims items and drops empty ones.
func clean(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
