//go:build unix

package transcript

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A transcript path from a hook payload can name anything: special files
// are refused at once, a file over the cap is refused without reading it.
func TestReadRefusesWhatIsNoTranscript(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFile + 1); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	for _, p := range []string{"/dev/zero", "/dev/urandom", fifo, dir, big} {
		done := make(chan error, 1)
		go func() {
			_, err := Read(p)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: read as a transcript", p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read still running after 5 s", p)
		}
	}
}
