package app

import (
	"os"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Resolve finds the memory an argument names, and its vault: a mem://
// URI, a path to a memory file, or a vault path such as
// decisions/use-bleve (the project's).
func (a *App) Resolve(arg string) (schema.URI, *vault.Vault, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return schema.URI{}, nil, badRequest("uri is required")
	}
	if !strings.HasPrefix(arg, schema.Scheme) && strings.HasSuffix(arg, ".md") {
		if _, err := os.Stat(arg); err == nil {
			for _, scope := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
				if v, err := a.VaultFor(scope); err == nil {
					if u, err := v.URIOf(arg); err == nil {
						return u, v, nil
					}
				}
			}
		}
	}
	u, err := schema.ParseArg(arg, schema.ScopeProject)
	if err != nil {
		return u, nil, err
	}
	v, err := a.VaultFor(u.Scope)
	return u, v, err
}
