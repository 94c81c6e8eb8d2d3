package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// DoctorCmd checks vaults.
type DoctorCmd struct {
	Scope string `help:"Check only this vault: project or user (default: every vault found)." enum:"project,user," default:""`
	Check bool   `help:"Only report: do not finish interrupted writes, repair the git index or remove temp files."`
}

// Help says what doctor repairs on its own.
func (c *DoctorCmd) Help() string {
	return `Checks the vault's history, the git index against HEAD, every memory file,
links, uncommitted edits and the ignore rules, and says how to fix each
problem. Before checking it repairs what a killed writer can leave behind
(none of it is a memory's content): it finishes a commit that was
interrupted, makes the git index agree with HEAD so a plain 'git commit'
in the vault cannot revert memories, and removes temp files. --check
reports those instead.`
}

func (c *DoctorCmd) Run(g *Globals, env *Env) error {
	vs, err := env.Vaults(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	reports := []vault.Report{}
	errs := 0
	for _, v := range vs {
		var repaired *vault.RepairReport
		if !c.Check {
			rep, err := v.Repair(context.Background())
			if err != nil && !errors.Is(err, vault.ErrLocked) {
				return err
			}
			// A locked vault has a live writer, which recovers it first.
			if rep.Any() {
				repaired = &rep
			}
		}
		r := v.Doctor()
		r.Repaired = repaired
		c.checkCache(env, v, &r)
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
			printRepairs(env, r.Repaired)
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

func printRepairs(env *Env, r *vault.RepairReport) {
	if r == nil {
		return
	}
	if r.Finished != "" {
		env.Printf("  repaired: finished the interrupted commit %s\n", r.Finished[:8])
	}
	if r.Void != "" {
		env.Printf("  repaired: dropped the record of commit %s (HEAD was moved by hand)\n", r.Void[:8])
	}
	for _, p := range r.Index {
		env.Printf("  repaired: git index entry of %s\n", p)
	}
	if n := len(r.Temps); n > 0 {
		env.Printf("  repaired: removed %d temp file(s) of killed writers\n", n)
	}
}

// checkCache opens the search cache the way a search does; damage a
// search would trip on is rebuilt (or, with --check, reported).
func (c *DoctorCmd) checkCache(env *Env, v *vault.Vault, r *vault.Report) {
	ctx := context.Background()
	ix, err := index.Open(v, index.Options{LockTimeout: env.g.LockTimeout})
	if err != nil {
		r.Problems = append(r.Problems, vault.Problem{Severity: vault.SevWarning, Code: "cache", Message: "search cache: " + err.Error(), Fix: "fix index: in cairn.yaml"})
		return
	}
	st, err := ix.Status(ctx)
	switch {
	case err != nil:
		r.Problems = append(r.Problems, vault.Problem{Severity: vault.SevWarning, Code: "cache", Message: "search cache: " + err.Error(), Fix: "run `cairn reindex`"})
	case st.NeedRebuild == "" || st.NotBuilt:
	case c.Check:
		r.Problems = append(r.Problems, vault.Problem{Severity: vault.SevWarning, Code: "cache", Message: "the search cache is damaged: " + st.NeedRebuild,
			Fix: "run `cairn doctor` or `cairn reindex` (the next search also rebuilds it)"})
	default:
		if err := ix.Rebuild(ctx, ""); err != nil {
			r.Problems = append(r.Problems, vault.Problem{Severity: vault.SevError, Code: "cache", Message: "rebuilding the damaged search cache failed: " + err.Error(), Fix: "delete " + ix.Dir() + " and run `cairn reindex`"})
			return
		}
		r.Problems = append(r.Problems, vault.Problem{Severity: vault.SevInfo, Code: "cache-rebuilt", Message: "rebuilt the damaged search cache (" + st.NeedRebuild + ")"})
	}
}
