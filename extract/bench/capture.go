package bench

import (
	"context"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
	"github.com/cairnmem/cairn/vault"
)

// DefaultCapture captures a session the way the Stop hook does: vaults
// with their secret guard, similar memories found through the index,
// deterministic extraction (no enrichment).
func DefaultCapture(ctx context.Context, s *transcript.Session, vs map[schema.Scope]*vault.Vault) (written, known []schema.URI, err error) {
	red, err := extract.GuardVault(vs[schema.ScopeProject])
	if err != nil {
		return nil, nil, err
	}
	var ixs []*index.Index
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		v := vs[sc]
		if v == nil {
			continue
		}
		if sc != schema.ScopeProject {
			if _, err := extract.GuardVault(v); err != nil {
				return nil, nil, err
			}
		}
		ix, err := index.Open(v, index.Options{})
		if err != nil {
			return nil, nil, err
		}
		ixs = append(ixs, ix)
	}
	res, err := extract.CaptureSession(ctx, s, extract.Options{Vaults: vs, Lookup: extract.IndexLookup{R: retrieve.New(ixs)}, Redactor: red,
		Meta: extract.Meta{Agent: s.Agent, Session: s.ID, Transcript: s.Path, Source: s.Agent + ":stop"}})
	if res != nil {
		if res.Applied != nil {
			written = res.Applied.Written
		}
		for _, a := range res.Plan {
			if a.Op == extract.OpSkip && a.Target != nil {
				known = append(known, *a.Target)
			}
		}
	}
	return written, known, err
}
