//go:build unix

package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairnmem/cairn/index"
)

// The detached finalizer stops at its deadline: here the vault is locked
// by someone else for longer than the finalizer may run.
func TestFinalizerHasADeadline(t *testing.T) {
	dir, v := project(t)
	runHook(t, "post-tool", payload(t, map[string]any{"session_id": "s-deadline", "cwd": dir, "tool_name": "Bash",
		"tool_input": map[string]any{"command": "go test ./..."}, "tool_response": map[string]any{"stdout": "ok"}}))
	lock, err := os.OpenFile(filepath.Join(v.GitDir, "cairn.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	oldDeadline, oldGrace, oldStop := finalizeDeadline, finalizeGrace, hardStop
	defer func() { finalizeDeadline, finalizeGrace, hardStop = oldDeadline, oldGrace, oldStop }()
	finalizeDeadline, finalizeGrace = 100*time.Millisecond, time.Hour
	hardStop = func() { t.Error("hard stop reached") }
	p := filepath.Join(dir, "payload.json")
	if err := os.WriteFile(p, []byte(payload(t, map[string]any{"session_id": "s-deadline", "cwd": dir,
		"last_assistant_message": "We decided to keep the cache in sqlite because it embeds in the binary."})), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	Run(context.Background(), "finalize", strings.NewReader(""), &bytes.Buffer{}, Options{Now: func() time.Time { return now }, LockTimeout: 30 * time.Second, Payload: p})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the finalizer ran %s past its %s deadline", took, finalizeDeadline)
	}
	log, _ := os.ReadFile(filepath.Join(v.Root, index.CacheDir, "hooks.log"))
	if !strings.Contains(string(log), "deadline exceeded") {
		t.Fatalf("hooks.log does not say the deadline stopped it:\n%s", log)
	}
}
