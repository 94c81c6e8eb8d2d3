package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var ctx = context.Background()

type fixture struct {
	t     testing.TB
	v     *vault.Vault
	ix    *index.Index
	warns []string
	mu    sync.Mutex
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, v: v}
	f.ix = f.open(index.Options{})
	return f
}

func (f *fixture) open(opts index.Options) *index.Index {
	opts.Warn = func(msg string) {
		f.mu.Lock()
		f.warns = append(f.warns, msg)
		f.mu.Unlock()
	}
	ix, err := index.Open(f.v, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	return ix
}

func (f *fixture) remember(kind schema.Kind, title, body string, tags ...string) schema.URI {
	f.t.Helper()
	m := schema.New(kind, title, time.Now())
	m.Body = body
	m.Tags = tags
	info, _ := kind.Info()
	m.URI = schema.URI{Scope: schema.ScopeProject, Path: info.Dir + "/" + schema.Slugify(title)}
	if _, err := f.v.Create(ctx, m, vault.CommitMeta{}); err != nil {
		f.t.Fatal(err)
	}
	return m.URI
}

func (f *fixture) search(q index.Query) []string {
	f.t.Helper()
	res, err := search(ctx, []*index.Index{f.ix}, q)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, h := range res.Items {
		out = append(out, h.URI.Path)
	}
	return out
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.v.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func seedSmall(f *fixture) {
	f.remember(schema.KindDecision, "Use bleve for full-text search", "Bleve is pure Go and gives us BM25 and stemming.", "search")
	f.remember(schema.KindConstraint, "Never commit secrets", "API keys and tokens live in the environment, never in files.", "security")
	f.remember(schema.KindCase, "Flaky sync test", "TestSync failed on CI because two tests shared a temp directory; root cause was t.TempDir misuse.", "testing")
	f.remember(schema.KindPreference, "Prefer table-driven tests", "Go tests use tables and t.Run subtests.", "testing")
}

func TestSearchModesAndFilters(t *testing.T) {
	f := newFixture(t)
	seedSmall(f)
	for _, mode := range []index.Mode{index.ModeText, index.ModeVector, index.ModeHybrid} {
		got := f.search(index.Query{Text: "full text search engine", Mode: mode})
		if len(got) == 0 || got[0] != "decisions/use-bleve-for-full-text-search" {
			t.Errorf("%s: %v", mode, got)
		}
	}
	// Stemming: "secret" finds "secrets", "tokens" finds "token".
	if got := f.search(index.Query{Text: "secret token", Mode: index.ModeText}); len(got) == 0 || got[0] != "constraints/never-commit-secrets" {
		t.Errorf("stemmed search: %v", got)
	}
	if got := f.search(index.Query{Text: "tests", Kinds: []schema.Kind{schema.KindPreference}}); len(got) != 1 || got[0] != "preferences/prefer-table-driven-tests" {
		t.Errorf("kind filter: %v", got)
	}
	if got := f.search(index.Query{Text: "test", Tags: []string{"TESTING"}}); len(got) != 2 {
		t.Errorf("tag filter: %v", got)
	}
	if got := f.search(index.Query{Text: "tests", Since: time.Now().Add(time.Hour)}); len(got) != 0 {
		t.Errorf("since filter: %v", got)
	}
	if got := f.search(index.Query{Text: "", Limit: 2}); len(got) != 2 {
		t.Errorf("empty query lists recent memories: %v", got)
	}
	if got := f.search(index.Query{Text: "zebra quantum"}); len(got) != 0 {
		t.Errorf("nonsense matched: %v", got)
	}
}

// A hand edit outside cairn is searchable at once, without any cairn write.
func TestHandEditIsSearchable(t *testing.T) {
	f := newFixture(t)
	seedSmall(f)
	f.search(index.Query{Text: "bleve"}) // builds the cache
	f.write("notes/kubernetes.md", "---\nkind: event\ntitle: Moved staging to kubernetes\n---\nThe staging cluster now runs on kubernetes.\n")
	if got := f.search(index.Query{Text: "kubernetes"}); len(got) != 1 || got[0] != "notes/kubernetes" {
		t.Fatalf("new hand-written file: %v", got)
	}
	// An in-place edit of the same size is still seen: stat, then hash.
	p := filepath.Join(f.v.Root, "notes", "kubernetes.md")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "kubernetes.\n", "kubernetez.\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := f.search(index.Query{Text: "kubernetez", Mode: index.ModeText}); len(got) != 1 {
		t.Fatalf("same-size edit: %v", got)
	}
	os.Remove(p)
	if got := f.search(index.Query{Text: "kubernetes"}); len(got) != 0 {
		t.Fatalf("deleted file still found: %v", got)
	}
	// An invalid hand edit is skipped with a warning, not a failure.
	f.write("notes/broken.md", "---\nkind: nope\ntitle: Broken kubernetes\n---\n")
	if got := f.search(index.Query{Text: "kubernetes"}); len(got) != 0 {
		t.Fatalf("invalid file indexed: %v", got)
	}
	if len(f.warns) == 0 || !strings.Contains(strings.Join(f.warns, "\n"), "broken.md") {
		t.Fatalf("no warning for the invalid file: %v", f.warns)
	}
	st, err := f.ix.Status(ctx)
	if err != nil || len(st.Invalid) != 1 || len(st.Stale) != 0 {
		t.Fatalf("status = %+v, %v", st, err)
	}
}

func TestDeletedCacheRebuildsSameResults(t *testing.T) {
	f := newFixture(t)
	seedSmall(f)
	q := index.Query{Text: "tests that failed", Mode: index.ModeHybrid}
	before := f.search(q)
	if err := os.RemoveAll(f.ix.Dir()); err != nil {
		t.Fatal(err)
	}
	after := f.search(q)
	if strings.Join(before, ",") != strings.Join(after, ",") || len(after) == 0 {
		t.Fatalf("before %v after %v", before, after)
	}
}

func TestCorruptCacheRebuildsWithWarning(t *testing.T) {
	for _, victim := range []string{"manifest.bin", "vectors.f32", "bleve/index_meta.json", "bleve/store/root.bolt"} {
		t.Run(victim, func(t *testing.T) {
			f := newFixture(t)
			seedSmall(f)
			want := f.search(index.Query{Text: "bleve search"})
			cur, _ := os.ReadFile(filepath.Join(f.ix.Dir(), "current"))
			p := filepath.Join(f.ix.Dir(), strings.TrimSpace(string(cur)), victim)
			if err := os.WriteFile(p, []byte("garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
			fresh := f.open(index.Options{})
			res, err := search(ctx, []*index.Index{fresh}, index.Query{Text: "bleve search"})
			if err != nil {
				t.Fatalf("search over a corrupt cache: %v", err)
			}
			if len(res.Items) != len(want) || res.Items[0].URI.Path != want[0] {
				t.Fatalf("after rebuild %v, want %v", res.Items, want)
			}
			if !strings.Contains(strings.Join(f.warns, "\n"), "rebuilding") {
				t.Fatalf("no rebuild warning: %v", f.warns)
			}
		})
	}
}

func TestResetToOlderCommit(t *testing.T) {
	f := newFixture(t)
	f.remember(schema.KindDecision, "Use postgres", "We store data in postgres.")
	old, _ := f.v.Head()
	f.remember(schema.KindDecision, "Use redis for caching", "Redis caches sessions.")
	if got := f.search(index.Query{Text: "redis"}); len(got) != 1 {
		t.Fatalf("redis not found: %v", got)
	}
	// git reset --hard to the older commit, as a user would.
	gitReset(t, f.v.Root, old)
	if got := f.search(index.Query{Text: "redis"}); len(got) != 0 {
		t.Fatalf("reset not reflected: %v", got)
	}
	st, _ := f.ix.Status(ctx)
	if st.Commit != old {
		t.Fatalf("indexed commit %s, want %s", st.Commit, old)
	}
}

func TestEmbedderSwitchReembeds(t *testing.T) {
	f := newFixture(t)
	seedSmall(f)
	f.search(index.Query{Text: "bleve"})
	f.ix = f.open(index.Options{Embedder: index.NewLexical(512)})
	got := f.search(index.Query{Text: "bleve full text", Mode: index.ModeVector})
	if len(got) == 0 || got[0] != "decisions/use-bleve-for-full-text-search" {
		t.Fatalf("after switch: %v", got)
	}
	st, _ := f.ix.Status(ctx)
	if st.Embedder.Dims != 512 || !strings.Contains(strings.Join(f.warns, "\n"), "embedder changed") {
		t.Fatalf("not re-embedded: %+v %v", st.Embedder, f.warns)
	}
}

// Eight readers and two writers at once: no reader fails, no write is lost.
func TestConcurrentReadersAndWriters(t *testing.T) {
	f := newFixture(t)
	seedSmall(f)
	f.search(index.Query{Text: "bleve"})
	const writers, perWriter, readers = 2, 10, 8
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	stop := make(chan struct{})
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, _ := index.Open(f.v, index.Options{}) // like a separate process
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := search(ctx, []*index.Index{ix}, index.Query{Text: "writer event"}); err != nil {
					errs <- fmt.Errorf("reader: %w", err)
					return
				}
			}
		}()
	}
	var ww sync.WaitGroup
	for w := 0; w < writers; w++ {
		ww.Add(1)
		go func(w int) {
			defer ww.Done()
			ix, _ := index.Open(f.v, index.Options{})
			for i := 0; i < perWriter; i++ {
				m := schema.New(schema.KindEvent, fmt.Sprintf("writer %d event %d", w, i), time.Now())
				m.Body = fmt.Sprintf("zq%dx%d happened", w, i)
				m.URI = schema.URI{Scope: schema.ScopeProject, Path: fmt.Sprintf("events/w%d-%d", w, i)}
				if _, err := f.v.Create(ctx, m, vault.CommitMeta{}); err != nil {
					errs <- err
					return
				}
				if err := ix.Sync(ctx); err != nil {
					errs <- fmt.Errorf("writer sync: %w", err)
					return
				}
			}
		}(w)
	}
	ww.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < perWriter; i++ {
			tok := fmt.Sprintf("zq%dx%d", w, i)
			if got := f.search(index.Query{Text: tok, Mode: index.ModeText}); len(got) != 1 {
				t.Fatalf("write %s lost: %v", tok, got)
			}
		}
	}
}
