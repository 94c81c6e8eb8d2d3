package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairnmem/cairn/extract"
)

// maxLog is the size at which the hook log is rotated.
const maxLog = 1 << 20

// logf appends one line to the hook log: the agent never sees failures,
// so this is where a person finds them.
func logf(path, format string, args ...any) {
	if path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLog {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	// Errors quote ids and text from payloads: the log is a file on disk
	// like any other, so it gets the same sanitizer.
	msg := extract.Sanitize(fmt.Sprintf(format, args...))
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339Nano), msg)
}

// fallbackLog is where a hook logs when it finds no vault.
func fallbackLog() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "cairn", "hooks.log")
}
