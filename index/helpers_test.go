package index_test

import (
	"os/exec"
	"testing"
)

func gitReset(t *testing.T, dir, rev string) {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "reset", "-q", "--hard", rev).CombinedOutput()
	if err != nil {
		t.Fatalf("git reset: %v\n%s", err, out)
	}
}
