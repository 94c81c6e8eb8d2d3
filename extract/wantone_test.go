package extract

import "testing"

// wantOne checks that a table case produced exactly the one title it
// wants, or nothing when it wants "".
func wantOne(t *testing.T, got []string, want string) {
	t.Helper()
	switch {
	case want == "" && len(got) > 0:
		t.Errorf("written: %q", got)
	case want != "" && (len(got) != 1 || got[0] != want):
		t.Errorf("got %q, want %q", got, want)
	}
}
