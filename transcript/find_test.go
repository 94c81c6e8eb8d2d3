package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindSessions(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "shop")
	write := func(path, cwd, ts string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		line := `{"type":"user","sessionId":"s","cwd":"` + cwd + `","timestamp":"` + ts + `","message":{"role":"user","content":"hi there friend"}}` + "\n"
		if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claude := filepath.Join(home, ".claude")
	dir := ClaudeProjectDir(claude, project)
	write(filepath.Join(dir, "b.jsonl"), project, "2026-02-01T00:00:00Z")
	write(filepath.Join(dir, "b", "subagents", "agent-a1.jsonl"), project, "2026-02-01T00:01:00Z")         // the parent's
	write(filepath.Join(dir, "b", "subagents", "agent-acompact-x.jsonl"), project, "2026-02-01T00:02:00Z") // parent present
	write(filepath.Join(dir, "gone", "subagents", "agent-acompact-y.jsonl"), project, "2026-01-15T00:00:00Z")
	write(filepath.Join(ClaudeProjectDir(claude, filepath.Join(project, "web")), "c.jsonl"), filepath.Join(project, "web"), "2026-03-01T00:00:00Z")
	write(filepath.Join(ClaudeProjectDir(claude, project+"-admin"), "d.jsonl"), project+"-admin", "2026-03-02T00:00:00Z")
	codex := filepath.Join(home, ".codex")
	rollout := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"r1","cwd":"` + project + `"}}` + "\n"
	other := `{"timestamp":"2026-01-02T00:00:00Z","type":"session_meta","payload":{"id":"r2","cwd":"/elsewhere"}}` + "\n"
	for name, data := range map[string]string{"rollout-a.jsonl": rollout, "rollout-b.jsonl": other, "notes.txt": "x"} {
		p := filepath.Join(codex, "sessions", "2026", "01", "01", name)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := FindSessions(project, Homes{Claude: claude, Codex: codex})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, filepath.Base(f.Path))
	}
	want := []string{"rollout-a.jsonl", "agent-acompact-y.jsonl", "b.jsonl", "c.jsonl"}
	if len(got) != len(want) {
		t.Fatalf("found %v, want %v (oldest first)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("found %v, want %v (oldest first)", got, want)
		}
	}
	if none, _ := FindSessions(project, Homes{Claude: filepath.Join(home, "missing"), Codex: filepath.Join(home, "missing")}); len(none) != 0 {
		t.Fatalf("no agent homes, no sessions: %v", none)
	}
}
