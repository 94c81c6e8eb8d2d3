package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Search ranks the memories of the vaults a scope selects (every vault
// there is with no scope) on the App's clock. An embedder that is down
// costs the vector ranking only: the result says so in its Warnings.
func (a *App) Search(ctx context.Context, scope schema.Scope, req retrieve.Request) (*retrieve.Result, error) {
	r, err := a.Retriever(scope)
	if err != nil {
		return nil, err
	}
	req.Session = extract.SanitizeLine(req.Session)
	return r.Search(ctx, req)
}

// Pack builds a context pack from the vaults a scope selects, as of asOf
// (the App's clock when zero): the same vaults, request and time give the
// same pack, byte for byte.
func (a *App) Pack(ctx context.Context, scope schema.Scope, req retrieve.PackRequest, asOf time.Time) (*retrieve.Pack, error) {
	r, err := a.Retriever(scope)
	if err != nil {
		return nil, err
	}
	if !asOf.IsZero() {
		r.Now = func() time.Time { return asOf }
	}
	req.Session = extract.SanitizeLine(req.Session)
	return r.Pack(ctx, req)
}

// Related is up to limit memories of every vault linked to or resembling
// the one at u.
func (a *App) Related(ctx context.Context, u schema.URI, limit int) ([]retrieve.Item, error) {
	r, err := a.Retriever("")
	if err != nil {
		return nil, err
	}
	return r.Related(ctx, u, limit)
}

// History is the log of one memory, newest first, at most limit commits
// (0: all); a memory that never was is ErrNotFound. With u nil it is the
// log of the scope's vault.
func (a *App) History(u *schema.URI, scope schema.Scope, limit int) ([]vault.Commit, error) {
	if u != nil {
		scope = u.Scope
	}
	v, err := a.VaultFor(scope)
	if err != nil {
		return nil, err
	}
	commits, err := v.Log(vault.LogOptions{URI: u, Limit: limit})
	if err != nil {
		return nil, err
	}
	if len(commits) == 0 && u != nil {
		return nil, fmt.Errorf("%w: no history for %s", ErrNotFound, u)
	}
	if commits == nil {
		commits = []vault.Commit{}
	}
	return commits, nil
}
