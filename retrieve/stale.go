package retrieve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/internal/atomicfile"
	"github.com/cairnmem/cairn/vault"
)

// staleFactor is how much a possibly stale memory's score is scaled.
const staleFactor = 0.7

// staleFile holds the last staleness check of a vault, in its cache:
// computing it walks project history, too slow for every hook, so it is
// refreshed by `cairn stale` and after each capture and read by every
// search.
const staleFile = "stale.json"

func stalePath(v *vault.Vault) string { return filepath.Join(v.Root, index.CacheDir, staleFile) }

// RefreshStale checks every vault's memories against project history and
// records the result for retrieval.
func RefreshStale(ctx context.Context, ixs []*index.Index) ([]vault.StaleMemory, error) {
	var all []vault.StaleMemory
	for _, ix := range ixs {
		v := ix.Vault()
		st, err := v.Stale(ctx)
		if err != nil {
			return all, err
		}
		if st == nil {
			st = []vault.StaleMemory{}
		}
		data, err := json.Marshal(st)
		if err != nil {
			return all, err
		}
		p := stalePath(v)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return all, err
		}
		tmp := p + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return all, err
		}
		if err := atomicfile.Rename(tmp, p); err != nil {
			return all, err
		}
		all = append(all, st...)
	}
	return all, nil
}

// staleSet reads the recorded staleness of the retriever's vaults: URI to
// the named files that changed.
func (r *Retriever) staleSet() map[string][]string {
	r.staleOnce.Do(func() {
		r.staleURIs = map[string][]string{}
		for _, ix := range r.ixs {
			data, err := os.ReadFile(stalePath(ix.Vault()))
			if err != nil {
				continue
			}
			var st []vault.StaleMemory
			if json.Unmarshal(data, &st) != nil {
				continue
			}
			for _, s := range st {
				r.staleURIs[s.URI] = s.Files
			}
		}
	})
	return r.staleURIs
}

func staleFlag(files []string) string {
	if len(files) > 3 {
		files = append(files[:3:3], "…")
	}
	return "possibly stale: " + strings.Join(files, ", ") + " changed since"
}
