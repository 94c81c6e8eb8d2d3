package vault

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// A ref read empty while another push writes it is worth another round;
// the local transport hands it on as text, other errors are not.
func TestRefBeingWritten(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("push: %w", dotgit.ErrEmptyRefFile), true},
		{errors.New("ref file is empty"), true},
		{errors.New("non-fast-forward update: refs/heads/main"), false},
		{nil, false},
	} {
		if got := refBeingWritten(tc.err); got != tc.want {
			t.Errorf("refBeingWritten(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
