package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// project makes a project with a vault holding a few memories.
func project(t *testing.T) (string, *vault.Vault) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	if _, err := vault.Init(context.Background(), vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	v.Now = func() time.Time { return now }
	for _, m := range []struct {
		kind        schema.Kind
		title, body string
		pinned      bool
	}{
		{schema.KindConstraint, "Never push to main directly", "All changes go through a pull request with review.", true},
		{schema.KindDecision, "Use bleve for full-text search", "Bleve embeds in the binary; no server to run.", false},
		{schema.KindCase, "Flaky port test in the server package", "The test raced on port 8080; binding port 0 fixed it.", false},
	} {
		mm := schema.New(m.kind, m.title, now)
		mm.Body, mm.Pinned = m.body, m.pinned
		info, _ := m.kind.Info()
		mm.URI = schema.URI{Scope: schema.ScopeProject, Path: info.Dir + "/" + schema.Slugify(m.title)}
		if _, err := v.Create(context.Background(), mm, vault.CommitMeta{}); err != nil {
			t.Fatal(err)
		}
	}
	return dir, v
}

func runHook(t *testing.T, event, stdin string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	code := Run(context.Background(), event, strings.NewReader(stdin), &out, Options{Now: func() time.Time { return now }, LockTimeout: 200 * time.Millisecond})
	return out.String(), code
}

func payload(t *testing.T, fields map[string]any) string {
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decode(t *testing.T, out string) Output {
	t.Helper()
	var o Output
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("hook output is not the hook JSON: %v\n%s", err, out)
	}
	return o
}

func TestSessionStartInjectsPack(t *testing.T) {
	dir, _ := project(t)
	out, code := runHook(t, "session-start", payload(t, map[string]any{"session_id": "s1", "cwd": dir, "source": "startup", "hook_event_name": "SessionStart"}))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	o := decode(t, out)
	ctx := o.HookSpecificOutput.AdditionalContext
	if o.HookSpecificOutput.HookEventName != "SessionStart" || !strings.Contains(ctx, "Never push to main directly") {
		t.Fatalf("session-start output:\n%s", out)
	}
	if len(ctx) >= MaxContext || !strings.Contains(strings.ToLower(ctx), "reference") {
		t.Fatalf("context should be reference data under %d chars:\n%s", MaxContext, ctx)
	}
	// The journal got the event.
	if _, err := os.Stat(filepath.Join(dir, vault.DirName, ".journal", "s1.jsonl")); err != nil {
		t.Fatal(err)
	}
}

func TestUserPromptInjectsOnlyWhatIsNewAndRelevant(t *testing.T) {
	dir, _ := project(t)
	p := func(prompt string) string {
		return payload(t, map[string]any{"session_id": "s2", "cwd": dir, "prompt": prompt, "hook_event_name": "UserPromptSubmit"})
	}
	// Session start showed the pinned rules; prompts add only news.
	if out, _ := runHook(t, "session-start", payload(t, map[string]any{"session_id": "s2", "cwd": dir, "source": "startup"})); out == "" {
		t.Fatal("no session-start pack")
	}
	if out, _ := runHook(t, "user-prompt", p("thanks, go ahead")); out != "" {
		t.Fatalf("small talk got context:\n%s", out)
	}
	if out, _ := runHook(t, "user-prompt", p("Write a haiku about autumn leaves")); out != "" {
		t.Fatalf("an unrelated prompt got context:\n%s", out)
	}
	// A session that has not seen the case gets it once.
	p = func(prompt string) string {
		return payload(t, map[string]any{"session_id": "s5", "cwd": dir, "prompt": prompt, "hook_event_name": "UserPromptSubmit"})
	}
	out, _ := runHook(t, "user-prompt", p("the server port test is flaky again, why?"))
	if o := decode(t, out); !strings.Contains(o.HookSpecificOutput.AdditionalContext, "Flaky port test") || o.HookSpecificOutput.HookEventName != "UserPromptSubmit" {
		t.Fatalf("relevant prompt:\n%s", out)
	}
	if out, _ := runHook(t, "user-prompt", p("the server port test is flaky again, why?")); out != "" {
		t.Fatalf("the same memory was injected twice in one session:\n%s", out)
	}
}

func TestHooksFailOpen(t *testing.T) {
	dir, v := project(t)
	empty := t.TempDir()
	good := payload(t, map[string]any{"session_id": "s3", "cwd": dir, "source": "startup"})
	tests := []struct {
		name, event, stdin string
		setup              func(t *testing.T) func()
		wantLog            string
		wantOutput         bool
	}{
		{name: "garbage stdin", event: "session-start", stdin: "{not json", wantLog: "not the JSON object"},
		{name: "empty stdin", event: "user-prompt", stdin: "", wantLog: "empty payload"},
		{name: "unknown event", event: "teleport", stdin: good, wantLog: `unknown hook event "teleport"`},
		{name: "no vault", event: "session-start", stdin: payload(t, map[string]any{"session_id": "s3", "cwd": empty}), wantLog: "not a cairn vault"},
		{name: "stop without transcript or journal", event: "stop", stdin: payload(t, map[string]any{"session_id": "never-seen", "cwd": dir, "transcript_path": filepath.Join(empty, "missing.jsonl")}),
			wantLog: "stop session=never-seen"},
		{name: "corrupt cache", event: "session-start", stdin: good, wantOutput: true, setup: func(t *testing.T) func() {
			ix, err := index.Open(v, index.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := ix.Sync(context.Background()); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(v.Root, index.CacheDir)
			gens, _ := filepath.Glob(filepath.Join(cache, "gen-*", "manifest.bin"))
			for _, g := range gens {
				os.WriteFile(g, []byte("garbage"), 0o644)
			}
			return func() {}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				defer tt.setup(t)()
			}
			done := make(chan struct{})
			var out string
			var code int
			go func() {
				out, code = runHook(t, tt.event, tt.stdin)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("hook blocked")
			}
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if tt.wantOutput {
				decode(t, out)
			} else if out != "" {
				t.Fatalf("unexpected output %q", out)
			}
			if tt.wantLog != "" {
				logs := readLogs(t, dir)
				if !strings.Contains(logs, tt.wantLog) {
					t.Fatalf("log lacks %q:\n%s", tt.wantLog, logs)
				}
			}
		})
	}
}

func TestLockedVaultFailsOpenQuickly(t *testing.T) {
	dir, v := project(t)
	release := make(chan struct{})
	held := make(chan struct{})
	go func() {
		_, _ = v.Update(context.Background(), vault.CommitMeta{}, func(tx *vault.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	defer close(release)
	start := time.Now()
	_, code := runHook(t, "user-prompt", payload(t, map[string]any{"session_id": "s4", "cwd": dir, "prompt": "Remember this: deploys happen on Tuesdays."}))
	if code != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("exit %d after %s", code, time.Since(start))
	}
	if logs := readLogs(t, dir); !strings.Contains(logs, "locked") {
		t.Fatalf("log lacks the lock:\n%s", logs)
	}
}

func TestFitCutsAtLine(t *testing.T) {
	long := strings.Repeat("a line of memory text\n", 1000)
	got := fit(long)
	if len(got) > MaxContext || !strings.HasSuffix(got, "(cut to fit the hook limit)\n") {
		t.Fatalf("fit: %d chars", len(got))
	}
	if fit("short") != "short" {
		t.Fatal("short text changed")
	}
}

// readLogs returns the vault's hook log and the fallback log.
func readLogs(t *testing.T, dir string) string {
	var b strings.Builder
	for _, p := range []string{filepath.Join(dir, vault.DirName, index.CacheDir, "hooks.log"), fallbackLog()} {
		data, _ := os.ReadFile(p)
		b.Write(data)
	}
	return b.String()
}
