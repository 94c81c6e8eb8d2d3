package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
)

// The finalizer builds the next session's pack; session-start then gives
// what it would have built itself.
func TestFinalizePrebuildsTheNextSessionsPack(t *testing.T) {
	dir, v := project(t)
	p := filepath.Join(dir, "payload.json")
	if err := os.WriteFile(p, []byte(payload(t, map[string]any{"session_id": "s-end", "cwd": dir})), 0o644); err != nil {
		t.Fatal(err)
	}
	Run(context.Background(), "finalize", strings.NewReader(""), &bytes.Buffer{}, Options{Now: func() time.Time { return now }, Payload: p})
	prebuilt := filepath.Join(v.Root, index.CacheDir, "derived", "session-start-pack.json")
	if _, err := os.Stat(prebuilt); err != nil {
		log, _ := os.ReadFile(filepath.Join(v.Root, index.CacheDir, "hooks.log"))
		t.Fatalf("no prebuilt pack: %v\n%s", err, log)
	}
	start := func(session string) string {
		out, _ := runHook(t, "session-start", payload(t, map[string]any{"session_id": session, "cwd": dir, "source": "startup", "hook_event_name": "SessionStart"}))
		return decode(t, out).HookSpecificOutput.AdditionalContext
	}
	warm := start("s-warm")
	if err := os.Remove(prebuilt); err != nil {
		t.Fatal(err)
	}
	if cold := start("s-cold"); warm != cold || !strings.Contains(warm, "Never push to main directly") {
		t.Fatalf("prebuilt pack:\n%s\nfresh pack:\n%s", warm, cold)
	}
}
