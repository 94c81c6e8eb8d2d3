package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/internal/golden"
	"github.com/cairnmem/cairn/serve"
)

// TestSecretCorpusEveryWritePath sends every secret of the redaction
// corpus through every way text enters cairn — remember, hand edits with
// commit -m, forget --why, the hooks (prompt, tool output, last message,
// session id, transcript), MCP remember and forget, HTTP create, save and
// delete — and then looks for the secrets in everything cairn wrote: the
// work tree, the journal, the cache, `git log -p --all` and the commit
// messages. Nothing may be found anywhere.
func TestSecretCorpusEveryWritePath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "share"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("CAIRN_SESSION", "")
	project := filepath.Join(dir, "p")
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	t.Chdir(project)
	cli := func(stdin string, args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(stdin), &out, &errb)
		return out.String() + errb.String(), code
	}
	if out, code := cli("", "init"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	corpus := secretCorpus(t)
	all := strings.Join(corpus, "\n")

	// CLI: remember redacts the secrets, as MCP and HTTP remember do,
	// through the policy and past it (--new).
	for _, extra := range [][]string{nil, {"--new"}} {
		args := append([]string{"remember", "-k", "event", "-t", "Corpus", "-b", "Context: " + all}, extra...)
		if out, code := cli("", args...); code != 0 || !strings.Contains(out, "redacted a secret") {
			t.Fatalf("remember %v: exit %d %s", extra, code, out)
		}
	}
	// CLI: hand edits committed with a message full of secrets.
	mustWrite(t, filepath.Join(project, ".memory", "cases", "hand.md"), "---\nkind: case\ntitle: Hand edit\n---\nA clean hand edit.\n")
	mustWrite(t, filepath.Join(project, ".memory", "cases", "leaky.md"), "---\nkind: case\ntitle: Leaky\n---\n"+all+"\n")
	if out, code := cli("", "commit", "-m", all); code != ExitInvalid {
		t.Fatalf("commit: exit %d %s", code, out)
	}
	_ = os.Remove(filepath.Join(project, ".memory", "cases", "leaky.md"))
	// CLI: forget with a why full of secrets.
	if out, code := cli("", "forget", "cases/hand", "--why", all); code != 0 {
		t.Fatalf("forget: exit %d %s", code, out)
	}

	// Hooks: prompts, tool output, last message, session ids, transcript.
	transcript := filepath.Join(dir, "transcript.jsonl")
	var tr strings.Builder
	for _, s := range corpus {
		line, _ := json.Marshal(map[string]any{"type": "user", "sessionId": "leak-hooks", "message": map[string]any{"role": "user", "content": "We decided to keep this: " + s}})
		tr.Write(append(line, '\n'))
	}
	mustWrite(t, transcript, tr.String())
	hook := func(event string, p map[string]any) {
		p["cwd"] = project
		if _, ok := p["session_id"]; !ok {
			p["session_id"] = "leak-hooks"
		}
		data, _ := json.Marshal(p)
		if out, code := cli(string(data), "hook", event); code != 0 {
			t.Fatalf("hook %s: exit %d %s", event, code, out)
		}
	}
	for i, s := range corpus {
		hook("user-prompt", map[string]any{"prompt": "Remember this: " + s})
		if i%7 == 0 {
			hook("post-tool", map[string]any{"session_id": s, "tool_name": "Bash", "tool_input": map[string]any{"command": s}, "tool_response": map[string]any{"stdout": s}})
		}
	}
	hook("post-tool", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "env"}, "tool_response": map[string]any{"stdout": all}})
	hook("stop", map[string]any{"transcript_path": transcript, "last_assistant_message": "We decided: " + all})
	hook("pre-compact", map[string]any{"transcript_path": transcript})

	// MCP: remember and forget.
	var mcp strings.Builder
	mcp.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	mcpCall := func(id int, tool string, args map[string]any) {
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
		mcp.Write(append(line, '\n'))
	}
	mcpCall(2, "memory_remember", map[string]any{"kind": "decision", "title": "Deploy credentials policy", "body": all, "session": corpus[0]})
	mcpCall(3, "memory_remember", map[string]any{"kind": "event", "title": "Rotated the deploy keys", "body": "Keys rotated.", "tags": []string{"ops"}})
	mcpCall(4, "memory_forget", map[string]any{"uri": "mem://project/events/rotated-the-deploy-keys", "why": all, "session": corpus[1]})
	if out, code := cli(mcp.String(), "mcp"); code != 0 || strings.Count(out, `"id":`) < 4 {
		t.Fatalf("mcp: exit %d %s", code, out)
	}

	// HTTP: create, save with a message, delete with a why.
	env := newEnv(&Globals{LockTimeout: 10e9}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	svc, err := env.Service("http")
	if err != nil {
		t.Fatal(err)
	}
	h, err := serve.Handler(svc, serve.HTTPOptions{Addr: "127.0.0.1:7411", Token: "t0k3n-for-the-leak-test-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	httpDo := func(method, path string, body any) {
		var rd *bytes.Reader
		if body != nil {
			data, _ := json.Marshal(body)
			rd = bytes.NewReader(data)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, _ := http.NewRequest(method, srv.URL+path, rd)
		req.Host = "127.0.0.1:7411"
		req.Header.Set("Authorization", "Bearer t0k3n-for-the-leak-test-0123456789abcdef")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s: %d", method, path, res.StatusCode)
		}
	}
	httpDo("POST", "/api/memories", map[string]any{"kind": "constraint", "title": "Never paste credentials", "body": all, "session": corpus[2]})
	httpDo("PUT", "/api/memories/project/cases/http-edit?create=1", map[string]any{"raw": "---\nkind: case\ntitle: HTTP edit\n---\nClean.\n", "message": all, "session": corpus[3]})
	httpDo("DELETE", "/api/memories/project/cases/http-edit?why="+url.QueryEscape(all), nil)

	// Where could a secret have landed?
	vault := filepath.Join(project, ".memory")
	gitOut := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", vault}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	sinks := map[string]string{
		"work tree": readTree(t, vault, func(rel string) bool {
			return !strings.HasPrefix(rel, ".git") && !strings.HasPrefix(rel, ".cache") && !strings.HasPrefix(rel, ".journal")
		}),
		".journal":         readTree(t, filepath.Join(vault, ".journal"), nil),
		".cache":           readTree(t, filepath.Join(vault, ".cache"), nil),
		"git log -p --all": gitOut("log", "-p", "--all"),
		"commit messages":  gitOut("log", "--all", "--format=%B"),
	}
	needles := secretNeedles(corpus)
	leaks := 0
	for _, name := range []string{"work tree", ".journal", ".cache", "git log -p --all", "commit messages"} {
		var found []string
		for _, n := range needles {
			if strings.Contains(sinks[name], n) {
				found = append(found, n)
			}
		}
		t.Logf("secrets leaked into %s: %d of %d", name, len(found), len(needles))
		if len(found) > 0 {
			leaks += len(found)
			t.Errorf("%s holds %d secret(s), e.g. %q", name, len(found), found[0])
		}
	}
	if os.Getenv("CAIRN_LEAK_KEEP") != "" {
		t.Logf("vault kept at %s", vault)
		_ = exec.Command("cp", "-a", vault, os.Getenv("CAIRN_LEAK_KEEP")).Run()
	}
	if !strings.Contains(sinks["commit messages"], "[REDACTED:") || !strings.Contains(sinks[".journal"], "[REDACTED:") {
		t.Fatal("the secrets did not reach the messages and the journal at all: the test exercised nothing")
	}
}

// secretCorpus is testdata/redact/secrets.txt, one secret per line.
func secretCorpus(t *testing.T) []string {
	f, err := os.Open(golden.Path("redact", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "<private>") {
			out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
	return out
}

// secretNeedles are the secret values of the corpus as the redactor
// spans them; the redaction tests make sure those spans are whole.
func secretNeedles(corpus []string) []string {
	r, _ := extract.NewRedactor(nil)
	var out []string
	for _, s := range corpus {
		for _, f := range r.Scan(s) {
			for _, part := range strings.Split(s[f.Start:f.End], "\n") {
				if len(part) >= 8 {
					out = append(out, part)
				}
			}
		}
	}
	return out
}

func readTree(t *testing.T, root string, keep func(rel string) bool) string {
	var b strings.Builder
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if keep != nil && !keep(filepath.ToSlash(rel)) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			b.Write(data)
			b.WriteByte('\n')
		}
		return nil
	})
	return b.String()
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
