package index_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// damage is one way a cache file gets hurt: a crash mid-write, a full
// disk, a bad sector, a stray tool.
type damage struct {
	name  string
	apply func(path string, rnd *rand.Rand) error
}

func rewrite(fn func([]byte, *rand.Rand) []byte) func(string, *rand.Rand) error {
	return func(p string, rnd *rand.Rand) error {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, fn(data, rnd), 0o644)
	}
}

func garbleAt(frac float64) func([]byte, *rand.Rand) []byte {
	return func(b []byte, rnd *rand.Rand) []byte {
		if len(b) == 0 {
			return b
		}
		at := int(float64(len(b)) * frac)
		for i := at; i < min(len(b), at+16); i++ {
			b[i] = byte(rnd.IntN(256))
		}
		return b
	}
}

var damages = []damage{
	{"deleted", func(p string, _ *rand.Rand) error { return os.Remove(p) }},
	{"emptied", func(p string, _ *rand.Rand) error { return os.Truncate(p, 0) }},
	{"half", rewrite(func(b []byte, _ *rand.Rand) []byte { return b[:len(b)/2] })},
	{"last byte cut", rewrite(func(b []byte, _ *rand.Rand) []byte { return b[:max(0, len(b)-1)] })},
	{"header garbled", rewrite(garbleAt(0))},
	{"garbled at 10%", rewrite(garbleAt(0.1))},
	{"garbled at 50%", rewrite(garbleAt(0.5))},
	{"garbled at 90%", rewrite(garbleAt(0.9))},
	{"tail garbled", nil},
	{"page zeroed", rewrite(func(b []byte, _ *rand.Rand) []byte {
		at := len(b) / 2 &^ 4095
		clear(b[at:min(len(b), at+4096)])
		return b
	})},
	{"garbage appended", rewrite(func(b []byte, rnd *rand.Rand) []byte {
		for i := 0; i < 100; i++ {
			b = append(b, byte(rnd.IntN(256)))
		}
		return b
	})},
}

func init() {
	// garbleAt(1) garbles nothing; the tail is the last 16 bytes.
	damages[8].apply = rewrite(func(b []byte, rnd *rand.Rand) []byte {
		for i := max(0, len(b)-16); i < len(b); i++ {
			b[i] = byte(rnd.IntN(256))
		}
		return b
	})
}

// TestCacheFaults damages every file of a built cache in every way above,
// one at a time, and requires that searches of each mode still give the
// answers of the healthy cache (the cache is rebuilt from the files) and
// that `index status` reports any damage a search had to rebuild for.
// $CAIRN_CACHEFAULT_SEEDS runs more garbling seeds.
func TestCacheFaults(t *testing.T) {
	f := newFixture(t)
	topics := []string{"bleve full-text search", "vector embeddings with SIMD", "git commits with trailers", "hook latency budgets", "secret redaction rules", "context pack budgets"}
	for batch := 0; batch < 3; batch++ {
		for i, topic := range topics {
			f.remember(schema.KindDecision, fmt.Sprintf("Decision %d on %s", batch*10+i, topic),
				fmt.Sprintf("We settled %s in round %d because it keeps cairn simple.", topic, batch), "batch"+strconv.Itoa(batch))
		}
		f.search(index.Query{Text: "warm up", Mode: index.ModeText}) // one segment per batch
	}
	queries := []index.Query{
		{Text: "bleve search", Mode: index.ModeText, Limit: 5},
		{Text: "embeddings SIMD vectors", Mode: index.ModeVector, Limit: 5},
		{Text: "hook latency", Mode: index.ModeHybrid, Limit: 5},
		{Mode: index.ModeText, Limit: 50},
		{Tags: []string{"batch1"}, Mode: index.ModeText, Limit: 50},
	}
	want := make([][]string, len(queries))
	for i, q := range queries {
		want[i] = f.search(q)
		if len(want[i]) == 0 {
			t.Fatalf("query %d finds nothing on a healthy cache", i)
		}
	}
	cache := f.ix.Dir()
	pristine := filepath.Join(t.TempDir(), "cache")
	copyDir(t, cache, pristine)
	var files []string
	_ = filepath.WalkDir(pristine, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".lock") && !strings.HasSuffix(p, "/lock") && !strings.Contains(p, "access.") && !strings.HasSuffix(p, ".log") {
			rel, _ := filepath.Rel(pristine, p)
			files = append(files, rel)
		}
		return nil
	})
	seeds := 1
	if n, err := strconv.Atoi(os.Getenv("CAIRN_CACHEFAULT_SEEDS")); err == nil && n > 0 {
		seeds = n
	}
	faults, survived := 0, 0
	var failures []string
	for seed := 0; seed < seeds; seed++ {
		rnd := rand.New(rand.NewPCG(uint64(seed), 42))
		for _, rel := range files {
			for _, dm := range damages {
				if seed > 0 && !strings.HasPrefix(dm.name, "garbled") {
					continue // only garbling differs by seed
				}
				faults++
				if err := os.RemoveAll(cache); err != nil {
					t.Fatal(err)
				}
				copyDir(t, pristine, cache)
				if err := dm.apply(filepath.Join(cache, rel), rnd); err != nil {
					t.Fatalf("%s %s: %v", rel, dm.name, err)
				}
				if msg := f.checkFault(queries, want); msg != "" {
					failures = append(failures, fmt.Sprintf("%s %s: %s", shortGen(rel), dm.name, msg))
					continue
				}
				survived++
			}
		}
	}
	t.Logf("cache faults: %d injected, %d survived with a correct answer and honest status", faults, survived)
	if len(failures) > 0 {
		t.Fatalf("%d of %d cache faults not survived:\n%s", len(failures), faults, strings.Join(failures, "\n"))
	}
}

// checkFault runs status, then the queries, on a fresh Index over the
// damaged cache; "" means the damage was survived.
func (f *fixture) checkFault(queries []index.Query, want [][]string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	var warns []string
	ix, err := index.Open(f.v, index.Options{Warn: func(m string) { warns = append(warns, m) }})
	if err != nil {
		return err.Error()
	}
	st, err := ix.Status(ctx)
	if err != nil {
		return "index status: " + err.Error()
	}
	for i, q := range queries {
		res, err := search(ctx, []*index.Index{ix}, q)
		if err != nil {
			return fmt.Sprintf("query %d: %v", i, err)
		}
		var got []string
		for _, h := range res.Items {
			got = append(got, h.URI.Path)
		}
		if !slices.Equal(got, want[i]) {
			return fmt.Sprintf("query %d: got %v, want %v", i, got, want[i])
		}
	}
	rebuilt := slices.ContainsFunc(warns, func(w string) bool { return strings.Contains(w, "rebuilding") })
	if rebuilt && st.NeedRebuild == "" {
		return fmt.Sprintf("index status said the cache was fine, then search rebuilt it (%s)", strings.Join(warns, "; "))
	}
	after, err := ix.Status(ctx)
	if err != nil || after.NeedRebuild != "" {
		return fmt.Sprintf("still damaged after the searches: %v %s", err, after.NeedRebuild)
	}
	return ""
}

func shortGen(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if strings.HasPrefix(parts[0], "gen-") {
		parts[0] = "gen"
	}
	return strings.Join(parts, "/")
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
