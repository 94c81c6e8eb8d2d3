package vaulttest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Vaults initializes a project vault and a user vault in a temporary
// directory, both on a fixed clock, for tests of packages above the vault.
func Vaults(t testing.TB, now func() time.Time) map[schema.Scope]*vault.Vault {
	t.Helper()
	dir := t.TempDir()
	out := map[schema.Scope]*vault.Vault{}
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		d := filepath.Join(dir, string(sc))
		if _, err := vault.Init(context.Background(), vault.InitOptions{Scope: sc, Dir: d}); err != nil {
			t.Fatal(err)
		}
		root := d
		if sc == schema.ScopeProject {
			root = filepath.Join(d, vault.DirName)
		}
		v, err := vault.Open(root, sc)
		if err != nil {
			t.Fatal(err)
		}
		v.Now = now
		out[sc] = v
	}
	return out
}
