package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var errBusy = errors.New("busy")

func isBusy(err error) bool { return errors.Is(err, errBusy) }

func TestRetry(t *testing.T) {
	permanent := errors.New("permanent")
	tests := []struct {
		name     string
		fails    int   // calls that fail before success
		failWith error // what they fail with
		budget   time.Duration
		want     error
		calls    int
	}{
		{"succeeds at once", 0, nil, time.Second, nil, 1},
		{"transient then ok", 3, errBusy, time.Second, nil, 4},
		{"permanent is not retried", 5, permanent, time.Second, permanent, 1},
		{"budget spent", 1 << 30, errBusy, 20 * time.Millisecond, errBusy, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			start := time.Now()
			err := retry(func() error {
				calls++
				if calls <= tt.fails {
					return tt.failWith
				}
				return nil
			}, isBusy, tt.budget)
			if !errors.Is(err, tt.want) && err != tt.want {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if tt.calls >= 0 && calls != tt.calls {
				t.Fatalf("%d calls, want %d", calls, tt.calls)
			}
			if el := time.Since(start); el > tt.budget+200*time.Millisecond {
				t.Fatalf("took %s with a budget of %s", el, tt.budget)
			}
		})
	}
}

func TestRenameReplaces(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "current")
	for i, content := range []string{"one", "two"} {
		tmp := filepath.Join(dir, "tmp")
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Rename(tmp, dst); err != nil {
			t.Fatalf("rename %d: %v", i, err)
		}
		got, err := ReadFile(dst)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if err := SyncDir(dir); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "tmp")); !os.IsNotExist(err) {
		t.Fatalf("temp file left behind: %v", err)
	}
}
