package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ConsolidateReport is what consolidate folded together and promoted.
type ConsolidateReport struct {
	Clusters   []*extract.Consolidation `json:"clusters"`
	Promotions []extract.Promotion      `json:"promotions"`
	DryRun     bool                     `json:"dry_run"`
}

// Consolidate folds each cluster of near duplicates in the vaults a scope
// selects into one memory, one commit per cluster; unless the scope is the
// project's, it also promotes a preference stated in several projects into
// the user vault.
func (a *App) Consolidate(ctx context.Context, scope schema.Scope, dryRun bool) (*ConsolidateReport, error) {
	ixs, err := a.Indexes(scope)
	if err != nil {
		return nil, err
	}
	clusters, err := retrieve.DuplicateClusters(ctx, ixs)
	if err != nil {
		return nil, err
	}
	rep := &ConsolidateReport{DryRun: dryRun, Clusters: []*extract.Consolidation{}, Promotions: []extract.Promotion{}}
	for _, cl := range clusters {
		v, err := a.VaultFor(cl[0].URI.Scope)
		if err != nil {
			return nil, err
		}
		uris := make([]schema.URI, 0, len(cl))
		for _, d := range cl {
			uris = append(uris, d.URI)
		}
		res, err := extract.Consolidate(ctx, v, uris, a.Meta("consolidate", ""), v.Now(), dryRun)
		if err != nil {
			return nil, err
		}
		rep.Clusters = append(rep.Clusters, res)
	}
	if scope == schema.ScopeProject {
		return rep, nil
	}
	if _, err := a.User(); err != nil {
		return rep, nil // no user vault: nothing to promote into
	}
	if rep.Promotions, err = a.promote(ctx, dryRun); err != nil {
		return nil, err
	}
	return rep, nil
}

// promote writes the preferences stated in enough of this machine's
// projects into the user vault through the capture policy, and returns
// those the policy did not skip as known already.
func (a *App) promote(ctx context.Context, dryRun bool) ([]extract.Promotion, error) {
	out := []extract.Promotion{}
	roots, err := vault.Projects()
	if err != nil {
		return nil, err
	}
	var projects []*vault.Vault
	for _, r := range roots {
		if v, err := vault.Open(r, schema.ScopeProject); err == nil {
			projects = append(projects, v)
		}
	}
	proms, cands, err := extract.PromotablePreferences(projects)
	if err != nil || len(cands) == 0 {
		return out, err
	}
	user, err := a.User()
	if err != nil {
		return nil, err
	}
	r, err := a.Retriever(schema.ScopeUser)
	if err != nil {
		return nil, err
	}
	res, err := extract.Promote(ctx, cands, extract.Options{Vaults: map[schema.Scope]*vault.Vault{schema.ScopeUser: user},
		Lookup: extract.IndexLookup{R: r}, Redactor: a.redactor(schema.ScopeUser), DryRun: dryRun, Meta: extract.Meta{Agent: a.o.Source}})
	if err != nil {
		return nil, fmt.Errorf("promote preferences: %w", err)
	}
	return promoted(proms, res.Plan), nil
}

// promoted is the promotions whose candidate the plan did not skip. The
// plan is matched by the candidate's sources, not by position: the policy
// drops candidates that repeat one another, so positions shift.
func promoted(proms []extract.Promotion, plan []extract.Action) []extract.Promotion {
	out := []extract.Promotion{}
	for _, p := range proms {
		i := slices.IndexFunc(plan, func(a extract.Action) bool { return slices.Equal(a.Candidate.Turns, p.Sources) })
		if i >= 0 && plan[i].Op != extract.OpSkip {
			out = append(out, p)
		}
	}
	return out
}
