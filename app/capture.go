package app

import (
	"context"
	"fmt"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// CaptureOptions wires a capture the one way every surface does: the
// vaults that exist, each with its guard; similar memories found through
// their indexes; the project's redactor, enricher and instruction files;
// the user vault created on first need. meta says who captures (CodeCommit
// gives the project's HEAD for what is captured now).
func (a *App) CaptureOptions(meta extract.Meta) (extract.Options, error) {
	vaults, err := a.byScope()
	if err != nil {
		return extract.Options{}, err
	}
	var ixs []*index.Index
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		v := vaults[sc]
		if v == nil {
			continue
		}
		ix, err := a.Index(v)
		if err != nil {
			return extract.Options{}, err
		}
		ixs = append(ixs, ix)
	}
	r := retrieve.New(ixs)
	r.Now = a.now
	meta.Session = extract.SanitizeLine(meta.Session)
	o := extract.Options{Vaults: vaults, Lookup: extract.IndexLookup{R: r}, Log: a.o.Log, Meta: meta, OpenVault: a.openForCapture}
	if a.o.Now != nil {
		o.Now = a.o.Now() // else each capture takes the time it runs at
	}
	p := vaults[schema.ScopeProject]
	o.Redactor = a.redactor(schema.ScopeProject)
	// A bad enrichment setting costs the enrichment, never the capture:
	// the deterministic result stands, and the person is told.
	if e, err := extract.NewEnricher(p.Config.Capture.Enrich); err != nil {
		a.warn(fmt.Sprintf("%s: capture.enrich: %v; capturing without enrichment", p.Root, err))
	} else if e != nil {
		o.Enricher = e
	}
	if dir := p.ProjectDir(); dir != "" {
		o.Instructions = extract.InstructionFiles(dir)
	}
	return o, nil
}

// openForCapture opens a vault a capture writes to that was not there
// when it started: the user vault, created on first need.
func (a *App) openForCapture(scope schema.Scope) (*vault.Vault, error) {
	if scope != schema.ScopeUser {
		return a.VaultFor(scope)
	}
	v, _, err := a.EnsureUser(context.Background())
	return v, err
}
