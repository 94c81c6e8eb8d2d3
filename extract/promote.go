package extract

import (
	"context"
	"path/filepath"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// promoteAt is how many projects must state a preference before it is
// taken as the person's own.
const promoteAt = 3

// Promotion is a preference found in several projects.
type Promotion struct {
	Title    string   `json:"title"`
	Projects []string `json:"projects"`
	Sources  []string `json:"sources"`
}

// PromotablePreferences finds preferences stated in promoteAt or more
// project vaults (the same subject, near-identical words): they belong
// to the person, not to one project.
func PromotablePreferences(projects []*vault.Vault) ([]Promotion, []Candidate, error) {
	type found struct {
		m       *schema.Memory
		project string
	}
	var all []found
	for _, v := range projects {
		es, err := v.List(vault.ListOptions{Prefix: "preferences/", Parse: true})
		if err != nil {
			return nil, nil, err
		}
		for _, e := range es {
			if e.Memory != nil && e.Memory.Kind == schema.KindPreference && e.Memory.Status.Current() {
				all = append(all, found{e.Memory, filepath.Dir(v.Root)})
			}
		}
	}
	used := make([]bool, len(all))
	var proms []Promotion
	var cands []Candidate
	for i := range all {
		if used[i] {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(all); j++ {
			if used[j] {
				continue
			}
			a, b := all[i].m, all[j].m
			if overlap(subject(a.Title), subject(b.Title)) >= 0.8 || overlap(bigrams(a.Title+"\n"+a.Body), bigrams(b.Title+"\n"+b.Body)) >= nearDuplicate {
				group = append(group, j)
			}
		}
		projectsSeen := map[string]bool{}
		for _, k := range group {
			projectsSeen[all[k].project] = true
		}
		if len(projectsSeen) < promoteAt {
			continue
		}
		p := Promotion{Title: all[i].m.Title}
		for pr := range projectsSeen {
			p.Projects = append(p.Projects, pr)
		}
		for _, k := range group {
			used[k] = true
			p.Sources = append(p.Sources, all[k].project+": "+all[k].m.URI.String())
		}
		proms = append(proms, p)
		m := all[i].m
		cands = append(cands, Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Title: m.Title, Summary: m.Summary, Body: m.Body,
			Tags: m.Tags, Extractor: "promote", Turns: p.Sources})
	}
	return proms, cands, nil
}

// Promote writes promotable preferences into the user vault through the
// usual policy (an existing one is merged or skipped).
func Promote(ctx context.Context, cands []Candidate, o Options) (*Result, error) {
	o.Meta.Source = "consolidate"
	return CaptureCandidates(ctx, cands, o)
}
