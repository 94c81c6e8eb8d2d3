package exchange

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/cairnmem/cairn/vault/vaulttest"
)

var now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func options(t *testing.T, vs map[schema.Scope]*vault.Vault) extract.Options {
	t.Helper()
	var ixs []*index.Index
	var red *extract.Redactor
	for _, sc := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		r, err := extract.GuardVault(vs[sc])
		if err != nil {
			t.Fatal(err)
		}
		red = r
		ix, err := index.Open(vs[sc], index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ixs = append(ixs, ix)
	}
	return extract.Options{Vaults: vs, Lookup: extract.IndexLookup{R: retrieve.New(ixs)}, Redactor: red, Now: now}
}

func titles(t *testing.T, vs map[schema.Scope]*vault.Vault) map[string]*schema.Memory {
	out := map[string]*schema.Memory{}
	for _, v := range vs {
		es, err := v.List(vault.ListOptions{Parse: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			out[e.Memory.Title] = e.Memory
		}
	}
	return out
}

func TestImportFolder(t *testing.T) {
	vs := vaulttest.Vaults(t, func() time.Time { return now })
	res, err := Import(context.Background(), filepath.Join("..", "testdata", "import", "obsidian"), "", options(t, vs))
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != FormatFolder || res.Found != 3 {
		t.Fatalf("format %s found %d", res.Format, res.Found)
	}
	got := titles(t, vs)
	if m := got["Use NATS for the job queue"]; m == nil || m.Kind != schema.KindDecision || !m.HasTag("queue") {
		t.Fatalf("decision from decisions/: %+v", m)
	}
	if m := got["Flaky port test"]; m == nil || m.Kind != schema.KindCase || !m.HasTag("flaky") {
		t.Fatalf("case from type: %+v", m)
	}
	m := got["Deploy checklist"]
	if m == nil || m.Kind != schema.KindPattern || strings.Contains(m.Body, "Sup3rS3cret") {
		t.Fatalf("plain note, redacted: %+v", m)
	}
	if m.Source == nil || m.Source.Extractor != "import:folder" {
		t.Fatalf("provenance: %+v", m.Source)
	}
	commits, _ := vs[schema.ScopeProject].Log(vault.LogOptions{Limit: 1})
	if commits[0].Source != "import:folder" {
		t.Fatalf("commit source %q", commits[0].Source)
	}
	// Importing again changes nothing: every record is already known.
	again, err := Import(context.Background(), filepath.Join("..", "testdata", "import", "obsidian"), "", options(t, vs))
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Result.Applied.Commits) != 0 {
		t.Fatalf("re-import committed: %+v", again.Result.Plan)
	}
}

func TestImportCline(t *testing.T) {
	vs := vaulttest.Vaults(t, func() time.Time { return now })
	res, err := Import(context.Background(), filepath.Join("..", "testdata", "import", "cline"), "", options(t, vs))
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != FormatCline {
		t.Fatalf("format %s", res.Format)
	}
	got := titles(t, vs)
	want := map[string]schema.Kind{"Project brief": schema.KindPattern, "Repository layer": schema.KindPattern, "Error handling": schema.KindPattern,
		"Technical constraints": schema.KindConstraint, "Refunds for partial payments": schema.KindThread, "Export to CSV": schema.KindThread,
		"Progress (from Cline)": schema.KindEvent}
	for title, kind := range want {
		if m := got[title]; m == nil || m.Kind != kind {
			t.Errorf("%s: %+v", title, m)
		}
	}
	if m := got["Export to CSV"]; m != nil && m.Status != schema.StatusOpen {
		t.Errorf("thread status %s", m.Status)
	}
}

func TestImportClaudeMem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude-mem.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE observations (id INTEGER PRIMARY KEY, sdk_session_id TEXT, project TEXT, type TEXT, title TEXT, subtitle TEXT,
			narrative TEXT, facts TEXT, concepts TEXT, files_read TEXT, files_modified TEXT, created_at TEXT, created_at_epoch INTEGER)`,
		`CREATE TABLE session_summaries (id INTEGER PRIMARY KEY, sdk_session_id TEXT, project TEXT, request TEXT, investigated TEXT,
			learned TEXT, completed TEXT, next_steps TEXT, notes TEXT, created_at TEXT)`,
		`INSERT INTO observations VALUES (1, 's1', 'app', 'decision', 'Switched auth to short-lived JWTs', 'Sessions were stateful',
			'The API is stateless now; tokens live 15 minutes.', '["tokens expire after 15 minutes","refresh via /token"]', '["auth","jwt"]', '[]', '["auth/token.go"]', '2026-10-01T10:00:00Z', 0)`,
		`INSERT INTO observations VALUES (2, 's1', 'app', 'bugfix', 'Fixed race in cache eviction', 'LRU evicted the newest entry',
			'Root cause: the list was appended at the wrong end.', '[]', '["cache"]', '[]', '["cache/lru.go"]', '2026-10-01T11:00:00Z', 0)`,
		`INSERT INTO session_summaries VALUES (1, 's1', 'app', 'Make auth stateless', 'auth middleware', 'JWT libraries differ on clock skew',
			'Switched to JWTs', 'Rotate signing keys', '', '2026-10-01T12:00:00Z')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if f, err := Detect(path); err != nil || f != FormatClaudeMem {
		t.Fatalf("detect: %s %v", f, err)
	}
	vs := vaulttest.Vaults(t, func() time.Time { return now })
	if _, err := Import(context.Background(), path, "", options(t, vs)); err != nil {
		t.Fatal(err)
	}
	got := titles(t, vs)
	if m := got["Switched auth to short-lived JWTs"]; m == nil || m.Kind != schema.KindDecision || !strings.Contains(m.Body, "refresh via /token") || !m.HasTag("jwt") {
		t.Fatalf("decision: %+v", m)
	}
	if m := got["Fixed race in cache eviction"]; m == nil || m.Kind != schema.KindCase {
		t.Fatalf("bugfix → case: %+v", m)
	}
	if m := got["Session: Make auth stateless"]; m == nil || m.Kind != schema.KindSession || !strings.Contains(m.Body, "Left: Rotate signing keys") {
		t.Fatalf("session: %+v", m)
	}
}

func TestExportRoundTrip(t *testing.T) {
	src := vaulttest.Vaults(t, func() time.Time { return now })
	if _, err := Import(context.Background(), filepath.Join("..", "testdata", "import", "cline"), "", options(t, src)); err != nil {
		t.Fatal(err)
	}
	want := titles(t, src)
	for _, format := range []string{FormatJSONL, FormatMarkdownZip} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			res, err := Export(&buf, []*vault.Vault{src[schema.ScopeProject], src[schema.ScopeUser]}, format)
			if err != nil || res.Memories != len(want) {
				t.Fatalf("export: %v, %d of %d", err, res.Memories, len(want))
			}
			ext := map[string]string{FormatJSONL: ".jsonl", FormatMarkdownZip: ".zip"}[format]
			file := filepath.Join(t.TempDir(), "export"+ext)
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			dst := vaulttest.Vaults(t, func() time.Time { return now })
			if _, err := Import(context.Background(), file, "", options(t, dst)); err != nil {
				t.Fatal(err)
			}
			got := titles(t, dst)
			for title, m := range want {
				g := got[title]
				if g == nil || g.Kind != m.Kind || strings.TrimSpace(g.Body) != strings.TrimSpace(m.Body) || g.Status != m.Status {
					t.Errorf("%s did not survive the round trip: %+v", title, g)
				}
			}
		})
	}
}
