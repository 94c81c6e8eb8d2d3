package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// CommitCmd commits hand edits.
type CommitCmd struct {
	Paths   []string `arg:"" optional:"" help:"Only these memories or files (default: every change)."`
	Message string   `short:"m" help:"Commit message body (why the edit was made)."`
	Scope   string   `help:"Vault: project or user." enum:"project,user" default:"project"`
}

// Help explains what commit does with invalid files.
func (c *CommitCmd) Help() string {
	return `Every added or modified memory is validated. Valid ones are committed in one
commit, with 'updated' set to now unless you changed it yourself. Invalid ones
are listed with file:line and left untouched on disk; the exit code is then 4.`
}

// commitReport is the JSON shape of `cairn commit`.
type commitReport struct {
	Commit    string             `json:"commit,omitempty"`
	Committed []vault.FileStatus `json:"committed"`
	Rejected  []rejected         `json:"rejected"`
}

type rejected struct {
	vault.FileStatus
	Error string `json:"error"`
}

func (c *CommitCmd) Run(g *Globals, env *Env) error {
	v, err := env.VaultFor(schema.Scope(c.Scope))
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range c.Paths {
		rel, err := vaultRel(env, v, p)
		if err != nil {
			return err
		}
		paths = append(paths, rel)
	}
	meta := env.Meta(v, "edit")
	meta.Source = "hand-edit"
	meta.Body = c.Message
	res, err := v.CommitWorkTree(context.Background(), meta, vault.HandEditOptions{Paths: paths})
	if err != nil {
		return err
	}
	out := commitReport{Commit: res.Commit, Committed: res.Files, Rejected: []rejected{}}
	if out.Committed == nil {
		out.Committed = []vault.FileStatus{}
	}
	for _, r := range res.Rejected {
		out.Rejected = append(out.Rejected, rejected{FileStatus: r.FileStatus, Error: r.Err.Error()})
	}
	if g.JSON {
		if err := env.JSON(out); err != nil {
			return err
		}
	} else {
		switch {
		case res.Committed():
			env.Printf("Committed %d change(s) (commit %s):\n", len(res.Files), res.Commit[:8])
			for _, s := range res.Files {
				env.Printf("  %-9s %s\n", s.State, describe(s))
			}
		case len(res.Rejected) == 0:
			env.Printf("Nothing to commit: the vault matches its history.\n")
		}
		if len(res.Rejected) > 0 {
			fmt.Fprintf(env.Stderr, "Left %d invalid file(s) uncommitted; fix them and run `cairn commit` again:\n", len(res.Rejected))
			for _, r := range res.Rejected {
				for _, l := range strings.Split(r.Err.Error(), "\n") {
					fmt.Fprintf(env.Stderr, "  %s\n", l)
				}
			}
		}
	}
	if len(res.Rejected) > 0 {
		return &silentError{code: ExitInvalid}
	}
	return nil
}

func describe(s vault.FileStatus) string {
	if s.URI != nil {
		return s.URI.String()
	}
	return s.Path
}

// vaultRel maps a command-line path or URI to a vault-relative path.
func vaultRel(env *Env, v *vault.Vault, arg string) (string, error) {
	if strings.HasPrefix(arg, schema.Scheme) {
		u, err := schema.ParseURI(arg, v.Scope)
		if err != nil {
			return "", err
		}
		return u.RelPath(), nil
	}
	if abs, err := filepath.Abs(arg); err == nil {
		if rel, err := filepath.Rel(v.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
			if _, err := os.Lstat(abs); err == nil || v.InHead(filepath.ToSlash(rel)) {
				return filepath.ToSlash(rel), nil
			}
		}
	}
	u, err := schema.ParseArg(arg, v.Scope)
	if err != nil {
		return "", err
	}
	return u.RelPath(), nil
}
