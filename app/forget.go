package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/vault"
)

// ForgetOutput is the commit that removed a memory.
type ForgetOutput struct {
	URI    string `json:"uri"`
	Commit string `json:"commit"`
}

// Forget removes a memory going forward, saying why; history keeps it.
// A memory that is not there is ErrNotFound before a missing reason is
// ErrBadRequest, on every surface.
func (a *App) Forget(ctx context.Context, uri, why, session string) (*ForgetOutput, error) {
	u, v, err := a.Resolve(uri)
	if err != nil {
		return nil, err
	}
	if !v.Exists(u) {
		return nil, fmt.Errorf("%w: no memory at %s", vault.ErrNotFound, u)
	}
	why = strings.TrimSpace(why)
	if why == "" {
		return nil, badRequest("say why the memory should be forgotten (--why)")
	}
	meta := a.Meta("forget", session)
	meta.Body = "Why: " + why
	res, err := v.Forget(ctx, u, meta)
	if err != nil {
		return nil, err
	}
	return &ForgetOutput{URI: u.String(), Commit: res.Commit}, nil
}
