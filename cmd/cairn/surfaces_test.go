package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/serve"
	"github.com/cairnmem/cairn/vault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// step is one use case run on every surface.
type step struct {
	name string
	// exactly one of these
	remember *app.RememberInput
	search   string
	context  string    // a context pack's task
	forget   [2]string // uri, why
}

// outcome is what a surface answered, normalized across surfaces.
type outcome struct {
	Op, URI, Target string
	URIs            []string // search results, a pack's items
	Commit          bool
	Err             string // the error's message; "" on success
}

// surface runs the use cases through one adapter.
type surface interface {
	run(t *testing.T, s step) outcome
}

// TestSurfacesAgree runs the same use cases through the CLI, MCP and the
// HTTP API, each on a fresh copy of the same vault, and wants the same
// answers, the same files, the same commits and the same errors.
func TestSurfacesAgree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed to read the vaults' logs")
	}
	steps := []step{
		{name: "remember a decision", remember: &app.RememberInput{Kind: "decision", Title: "Use bleve for search", Body: "Pure Go full-text search with BM25."}},
		{name: "a new decision on the same subject supersedes", remember: &app.RememberInput{Kind: "decision", Title: "Use bleve for search", Body: "bleve 2 with the scorch store, for speed."}},
		{name: "remember a case", remember: &app.RememberInput{Kind: "case", Title: "Flaky port in the sync test", Body: "Two tests bound port 7411 at once."}},
		{name: "the same case again is skipped", remember: &app.RememberInput{Kind: "case", Title: "Flaky port in the sync test", Body: "Two tests bound port 7411 at once."}},
		{name: "a preference creates the user vault", remember: &app.RememberInput{Kind: "preference", Title: "Prefer table-driven tests", Body: "Go tests are table-driven with t.Run."}},
		{name: "a private span and a secret never land", remember: &app.RememberInput{Kind: "constraint", Title: "Deploy from the release host", Body: "The host is <private>10.0.0.7, door code 4411</private>; key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 lives in the vault."}},
		{name: "bad kind", remember: &app.RememberInput{Kind: "gossip", Title: "x"}},
		{name: "bad importance", remember: &app.RememberInput{Kind: "decision", Title: "x", Importance: 3}},
		{name: "search", search: "bleve search"},
		{name: "search the user vault too", search: "table-driven tests"},
		{name: "context for a task", context: "fix the flaky sync test"},
		{name: "forget without a reason", forget: [2]string{"decisions/use-bleve-for-search-2", ""}},
		{name: "forget", forget: [2]string{"decisions/use-bleve-for-search-2", "moved to tantivy"}},
		{name: "forget what is not there", forget: [2]string{"decisions/no-such-thing", "typo"}},
	}
	type result struct {
		outs    []outcome
		files   map[string]string
		commits []string
	}
	results := map[string]result{}
	for _, name := range []string{"cli", "mcp", "http"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			proj := filepath.Join(root, "proj")
			user := filepath.Join(root, "user")
			if _, err := vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: proj}); err != nil {
				t.Fatal(err)
			}
			var sf surface
			switch name {
			case "cli":
				sf = cliSurface{vault: filepath.Join(proj, vault.DirName), user: user}
			case "mcp":
				sf = newMCPSurface(t, filepath.Join(proj, vault.DirName), user)
			case "http":
				sf = newHTTPSurface(t, filepath.Join(proj, vault.DirName), user)
			}
			var r result
			for _, s := range steps {
				r.outs = append(r.outs, sf.run(t, s))
			}
			r.files = vaultFiles(t, filepath.Join(proj, vault.DirName), user)
			r.commits = append(gitSubjects(t, filepath.Join(proj, vault.DirName)), gitSubjects(t, user)...)
			results[name] = r
		})
	}
	want := results["cli"]
	if len(want.outs) != len(steps) {
		t.Fatal("the CLI run did not finish")
	}
	for _, name := range []string{"mcp", "http"} {
		got := results[name]
		for i, s := range steps {
			if i >= len(got.outs) {
				t.Fatalf("%s stopped before %q", name, s.name)
			}
			if g, w := got.outs[i], want.outs[i]; !equalOutcome(g, w) {
				t.Errorf("%s, %s:\n got %+v\nwant %+v (cli)", name, s.name, g, w)
			}
		}
		if !slices.Equal(got.commits, want.commits) {
			t.Errorf("%s commits:\n got %q\nwant %q (cli)", name, got.commits, want.commits)
		}
		for path, w := range want.files {
			if g, ok := got.files[path]; !ok {
				t.Errorf("%s: no %s", name, path)
			} else if g != w {
				t.Errorf("%s: %s differs:\n got %s\nwant %s", name, path, g, w)
			}
		}
		for path := range got.files {
			if _, ok := want.files[path]; !ok {
				t.Errorf("%s wrote %s, the CLI did not", name, path)
			}
		}
	}
	// The run must have exercised what it claims to.
	outs := want.outs
	if outs[1].Op != "supersede" || outs[3].Op != "skip" || !strings.HasPrefix(outs[4].URI, "mem://user/") || outs[6].Err == "" || outs[11].Err == "" || outs[13].Err == "" ||
		!slices.Contains(outs[10].URIs, "mem://project/cases/flaky-port-in-the-sync-test") {
		t.Fatalf("the CLI's run does not show the policies: %+v", outs)
	}
	for path, text := range want.files {
		if strings.Contains(text, "door code") || strings.Contains(text, "sk-ant-api03") {
			t.Errorf("%s holds a private span or a secret", path)
		}
	}
}

func equalOutcome(a, b outcome) bool {
	return a.Op == b.Op && a.URI == b.URI && a.Target == b.Target && a.Commit == b.Commit && a.Err == b.Err && slices.Equal(a.URIs, b.URIs)
}

type cliSurface struct{ vault, user string }

func (c cliSurface) cairn(t *testing.T, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := run(append([]string{"--vault", c.vault, "--user-vault", c.user, "--json"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// cliErr is the message of a failed command, as the other surfaces word it.
func cliErr(stderr string) string {
	var last string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if m, ok := strings.CutPrefix(l, "cairn: "); ok {
			last = m
		}
	}
	return last
}

func (c cliSurface) run(t *testing.T, s step) outcome {
	switch {
	case s.remember != nil:
		in := s.remember
		args := []string{"remember", "-k", in.Kind, "-t", in.Title, "-b", in.Body}
		if in.Importance != 0 {
			args = append(args, "--importance", strings.TrimRight(strings.TrimRight(jsonNum(in.Importance), "0"), "."))
		}
		out, stderr, code := c.cairn(t, args...)
		if code != 0 {
			return outcome{Err: cliErr(stderr)}
		}
		var r app.RememberOutput
		mustJSON(t, out, &r)
		return outcome{Op: r.Op, URI: r.URI, Target: r.Target, Commit: r.Commit != ""}
	case s.search != "":
		out, stderr, code := c.cairn(t, "search", s.search)
		if code != 0 {
			return outcome{Err: cliErr(stderr)}
		}
		var r struct{ Hits []struct{ URI string } }
		mustJSON(t, out, &r)
		var o outcome
		for _, cd := range r.Hits {
			o.URIs = append(o.URIs, cd.URI)
		}
		return o
	case s.context != "":
		out, stderr, code := c.cairn(t, "context", "--task", s.context)
		if code != 0 {
			return outcome{Err: cliErr(stderr)}
		}
		var r struct {
			Sections []struct{ Items []struct{ URI string } }
		}
		mustJSON(t, out, &r)
		var o outcome
		for _, sec := range r.Sections {
			for _, it := range sec.Items {
				o.URIs = append(o.URIs, it.URI)
			}
		}
		return o
	default:
		args := []string{"forget", s.forget[0]}
		if s.forget[1] != "" {
			args = append(args, "--why", s.forget[1])
		}
		out, stderr, code := c.cairn(t, args...)
		if code != 0 {
			return outcome{Err: cliErr(stderr)}
		}
		var r struct{ Commit string }
		mustJSON(t, out, &r)
		return outcome{Commit: r.Commit != ""}
	}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) + ".0" }

type mcpSurface struct{ cs *mcp.ClientSession }

func newService(t *testing.T, vaultDir, user, source string) *serve.Service {
	svc, err := serve.ForApp(app.New(app.Options{Vault: vaultDir, UserVault: user, Source: source}))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func newMCPSurface(t *testing.T, vaultDir, user string) mcpSurface {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := serve.MCPServer(newService(t, vaultDir, user, "mcp"), "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return mcpSurface{cs: cs}
}

func (m mcpSurface) call(t *testing.T, tool string, args map[string]any) (string, string) {
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, tc.Text)
			}
		}
		return "", strings.Join(msg, "\n")
	}
	raw, _ := json.Marshal(res.StructuredContent)
	return string(raw), ""
}

func (m mcpSurface) run(t *testing.T, s step) outcome {
	switch {
	case s.remember != nil:
		args := map[string]any{"kind": s.remember.Kind, "title": s.remember.Title, "body": s.remember.Body}
		if s.remember.Importance != 0 {
			args["importance"] = s.remember.Importance
		}
		out, msg := m.call(t, "memory_remember", args)
		if msg != "" {
			return outcome{Err: msg}
		}
		var r app.RememberOutput
		mustJSON(t, out, &r)
		return outcome{Op: r.Op, URI: r.URI, Target: r.Target, Commit: r.Commit != ""}
	case s.search != "":
		out, msg := m.call(t, "memory_search", map[string]any{"query": s.search})
		if msg != "" {
			return outcome{Err: msg}
		}
		var r struct{ Results []struct{ URI string } }
		mustJSON(t, out, &r)
		var o outcome
		for _, cd := range r.Results {
			o.URIs = append(o.URIs, cd.URI)
		}
		return o
	case s.context != "":
		out, msg := m.call(t, "memory_context", map[string]any{"task": s.context})
		if msg != "" {
			return outcome{Err: msg}
		}
		return packOutcome(t, out)
	default:
		out, msg := m.call(t, "memory_forget", map[string]any{"uri": s.forget[0], "why": s.forget[1]})
		if msg != "" {
			return outcome{Err: msg}
		}
		var r struct{ Commit string }
		mustJSON(t, out, &r)
		return outcome{Commit: r.Commit != ""}
	}
}

type httpSurface struct{ url string }

const surfaceToken = "0123456789abcdef0123456789abcdef0123456789abcdef"

func newHTTPSurface(t *testing.T, vaultDir, user string) httpSurface {
	h, err := serve.Handler(newService(t, vaultDir, user, "http"), serve.HTTPOptions{Addr: "127.0.0.1:7411", Token: surfaceToken, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return httpSurface{url: srv.URL}
}

func (h httpSurface) do(t *testing.T, method, path string, body any) (int, string) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	req.Host = "127.0.0.1:7411"
	req.Header.Set("Authorization", "Bearer "+surfaceToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

func httpErr(t *testing.T, raw string) string {
	var e struct{ Error struct{ Message string } }
	mustJSON(t, raw, &e)
	return e.Error.Message
}

func (h httpSurface) run(t *testing.T, s step) outcome {
	switch {
	case s.remember != nil:
		body := map[string]any{"kind": s.remember.Kind, "title": s.remember.Title, "body": s.remember.Body}
		if s.remember.Importance != 0 {
			body["importance"] = s.remember.Importance
		}
		code, raw := h.do(t, "POST", "/api/memories", body)
		if code >= 300 {
			return outcome{Err: httpErr(t, raw)}
		}
		var r app.RememberOutput
		mustJSON(t, raw, &r)
		return outcome{Op: r.Op, URI: r.URI, Target: r.Target, Commit: r.Commit != ""}
	case s.search != "":
		code, raw := h.do(t, "GET", "/api/search?q="+strings.ReplaceAll(s.search, " ", "+"), nil)
		if code >= 300 {
			return outcome{Err: httpErr(t, raw)}
		}
		var r struct{ Results []struct{ URI string } }
		mustJSON(t, raw, &r)
		var o outcome
		for _, cd := range r.Results {
			o.URIs = append(o.URIs, cd.URI)
		}
		return o
	case s.context != "":
		code, raw := h.do(t, "GET", "/api/context?task="+strings.ReplaceAll(s.context, " ", "+"), nil)
		if code >= 300 {
			return outcome{Err: httpErr(t, raw)}
		}
		return packOutcome(t, raw)
	default:
		u, _ := schema.ParseArg(s.forget[0], schema.ScopeProject)
		code, raw := h.do(t, "DELETE", "/api/memories/"+string(u.Scope)+"/"+u.Path+"?why="+strings.ReplaceAll(s.forget[1], " ", "+"), nil)
		if code >= 300 {
			return outcome{Err: httpErr(t, raw)}
		}
		var r struct{ Commit string }
		mustJSON(t, raw, &r)
		return outcome{Commit: r.Commit != ""}
	}
}

// packOutcome is the items of a pack as MCP and HTTP give them: cards.
func packOutcome(t *testing.T, raw string) outcome {
	var r struct{ Cards []struct{ URI string } }
	mustJSON(t, raw, &r)
	var o outcome
	for _, cd := range r.Cards {
		o.URIs = append(o.URIs, cd.URI)
	}
	return o
}

func mustJSON(t *testing.T, raw string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		t.Fatalf("bad JSON %q: %v", raw, err)
	}
}

// surfaceLine is what legitimately differs between surfaces in a memory
// file: when it was written, and which surface wrote it.
var surfaceLine = regexp.MustCompile(`(?m)^(created|updated|reviewed): .*\n|^  (agent|extractor|version|code_commit): .*\n`)

// vaultFiles are the memory files of the vaults, by vault-relative path,
// without what names the surface or the time.
func vaultFiles(t *testing.T, roots ...string) map[string]string {
	out := map[string]string{}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == ".cache" || d.Name() == ".journal") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(filepath.Dir(root), p)
			out[filepath.ToSlash(rel)] = surfaceLine.ReplaceAllString(string(data), "")
			return nil
		})
	}
	return out
}

func gitSubjects(t *testing.T, dir string) []string {
	out, err := exec.Command("git", "-C", dir, "log", "--format=%s").Output()
	if err != nil {
		t.Fatalf("git log in %s: %v", dir, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
