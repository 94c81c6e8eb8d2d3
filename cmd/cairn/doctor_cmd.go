package main

import (
	"fmt"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// DoctorCmd checks vaults.
type DoctorCmd struct {
	Scope string `help:"Check only this vault: project or user (default: every vault found)." enum:"project,user," default:""`
}

func (c *DoctorCmd) Run(g *Globals, env *Env) error {
	vs, err := env.Vaults(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	reports := []vault.Report{}
	errs := 0
	for _, v := range vs {
		r := v.Doctor()
		errs += r.Errors()
		reports = append(reports, r)
	}
	if g.JSON {
		if err := env.JSON(reports); err != nil {
			return err
		}
	} else {
		for _, r := range reports {
			env.Printf("%s vault %s: %d memories", r.Scope, r.Vault, r.Memories)
			if r.Head != "" {
				env.Printf(", HEAD %s", r.Head[:8])
			}
			env.Printf("\n")
			if len(r.Problems) == 0 {
				env.Printf("  ok: no problems found\n")
			}
			for _, p := range r.Problems {
				env.Printf("  %-7s %s\n", p.Severity, p.Message)
				if p.Fix != "" {
					env.Printf("          fix: %s\n", p.Fix)
				}
			}
		}
	}
	if errs > 0 {
		if !g.JSON {
			fmt.Fprintf(env.Stderr, "cairn: doctor found %d error(s)\n", errs)
		}
		return &silentError{code: ExitFailure}
	}
	return nil
}
