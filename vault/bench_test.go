package vault_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// seed fills a vault with n memories spread over the kind directories, in
// one commit, the way a long-lived project vault looks.
func seed(b *testing.B, v *vault.Vault, n int) {
	b.Helper()
	kinds := []schema.Kind{schema.KindDecision, schema.KindEvent, schema.KindOutcome, schema.KindSession, schema.KindCase, schema.KindThread}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, err := v.Update(context.Background(), vault.CommitMeta{Verb: "seed"}, func(tx *vault.Tx) error {
		for i := 0; i < n; i++ {
			k := kinds[i%len(kinds)]
			info, _ := k.Info()
			m := schema.New(k, fmt.Sprintf("Seeded memory %d about component %d", i, i%97), now)
			m.Body = fmt.Sprintf("Memory %d records what happened to component %d and why it matters.", i, i%97)
			m.URI = schema.URI{Scope: schema.ScopeProject, Path: fmt.Sprintf("%s/seeded-%d", info.Dir, i)}
			if err := tx.Put(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRemember measures one remember (validate, atomic write, commit,
// index update) at several vault sizes: the cost should follow the size of
// the directory written to, not the vault.
func BenchmarkRemember(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			v := newVault(b)
			seed(b, v, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m := schema.New(schema.KindDecision, fmt.Sprintf("Benchmark decision %d", i), time.Now())
				m.Body = "Chosen for the benchmark."
				m.URI = schema.URI{Scope: schema.ScopeProject, Path: fmt.Sprintf("decisions/benchmark-decision-%d", i)}
				if _, err := v.Create(context.Background(), m, vault.CommitMeta{Session: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
