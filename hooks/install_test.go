package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// existingSettings is a user's settings file with hooks of their own.
const existingSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier", "args": ["--write"]}]}
    ]
  }
}
`

func TestInstallClaudeMergesAndUninstallsExactly(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(existingSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	tg := Target{Agent: "claude", Scope: "project", Project: dir, Command: "cairn"}

	changes, err := Install(tg)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 2 || changes[0].Action != "updated" || changes[1].Action != "created" {
		t.Fatalf("changes: %+v", changes)
	}
	doc := read(t, settings)
	if gjson.Get(doc, "model").String() != "opus" || gjson.Get(doc, "permissions.allow.0").String() != "Bash(go test:*)" {
		t.Fatalf("other settings lost:\n%s", doc)
	}
	if got := gjson.Get(doc, "hooks.PostToolUse.#").Int(); got != 2 {
		t.Fatalf("PostToolUse groups: %d\n%s", got, doc)
	}
	for _, ev := range Events {
		name := eventNames[ev]
		h := gjson.Get(doc, "hooks."+name+".#(hooks.0.command==\"cairn\").hooks.0")
		if h.Get("args.0").String() != "hook" || h.Get("args.1").String() != ev || h.Get("timeout").Int() == 0 || h.Get("type").String() != "command" {
			t.Fatalf("hook %s: %s", name, h.Raw)
		}
	}
	if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o600 {
		t.Fatalf("permissions changed to %v", fi.Mode().Perm())
	}
	mcp := read(t, filepath.Join(dir, ".mcp.json"))
	if gjson.Get(mcp, "mcpServers.cairn.args.0").String() != "mcp" {
		t.Fatalf(".mcp.json: %s", mcp)
	}

	// Idempotent.
	again, err := Install(tg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range again {
		if c.Action != "unchanged" {
			t.Fatalf("second install changed %+v", c)
		}
	}
	if read(t, settings) != doc {
		t.Fatal("second install rewrote settings")
	}

	// Uninstall leaves the user's own settings exactly as they were.
	if _, err := Uninstall(tg); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, read(t, settings), existingSettings) {
		t.Fatalf("uninstall left:\n%s", read(t, settings))
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json")); !os.IsNotExist(err) {
		t.Fatalf(".mcp.json should be removed when cairn created it alone: %v", err)
	}
	if ch, err := Uninstall(tg); err != nil || ch[0].Action != "unchanged" {
		t.Fatalf("second uninstall: %+v %v", ch, err)
	}
}

func TestInstallRefusesBrokenJSON(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"model": "opus",`), 0o644)
	_, err := Install(Target{Agent: "claude", Scope: "project", Project: dir, Command: "cairn"})
	if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("want a refusal, got %v", err)
	}
	if read(t, settings) != `{"model": "opus",` {
		t.Fatal("broken file was overwritten")
	}
}

func TestInstallCodex(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".codex", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	orig := "model = \"gpt-5\"\n\n[mcp_servers.other]\ncommand = \"other\"\n"
	os.WriteFile(cfg, []byte(orig), 0o644)
	tg := Target{Agent: "codex", Scope: "user", Home: home, Command: "/opt/bin/cairn"}
	if _, err := Install(tg); err != nil {
		t.Fatal(err)
	}
	toml := read(t, cfg)
	if !strings.Contains(toml, "[mcp_servers.cairn]\ncommand = \"/opt/bin/cairn\"") || !strings.HasPrefix(toml, orig) {
		t.Fatalf("config.toml:\n%s", toml)
	}
	hooks := read(t, filepath.Join(home, ".codex", "hooks.json"))
	if gjson.Get(hooks, "hooks.SessionEnd").Exists() {
		t.Fatal("Codex has no SessionEnd hook")
	}
	var args []string
	for _, a := range gjson.Get(hooks, "hooks.Stop.0.hooks.0.args").Array() {
		args = append(args, a.String())
	}
	if strings.Join(args, " ") != "hook stop --agent codex" {
		t.Fatalf("codex stop hook: %s", hooks)
	}
	if ch, _ := Install(tg); ch[0].Action != "unchanged" || ch[1].Action != "unchanged" {
		t.Fatalf("second install: %+v", ch)
	}
	if _, err := Uninstall(tg); err != nil {
		t.Fatal(err)
	}
	if got := read(t, cfg); got != orig {
		t.Fatalf("uninstall left config.toml:\n%q\nwant\n%q", got, orig)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex", "hooks.json")); !os.IsNotExist(err) {
		t.Fatal("hooks.json cairn created should be gone")
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
