package index

import (
	"strings"
	"testing"
)

func TestBoundQuery(t *testing.T) {
	long := strings.Repeat("abcdefgh", 50000)
	for in, want := range map[string]string{
		"how do we cache results":                     "how do we cache results",
		"find " + long + " and caching":               "find   and caching",
		"keep TestConcurrentReadersAndWritersSwap ok": "keep TestConcurrentReadersAndWritersSwap ok",
	} {
		if got := boundQuery(in); got != want {
			t.Errorf("boundQuery(%.40q) = %.60q, want %q", in, got, want)
		}
	}
	if got := boundQuery(strings.Repeat("word ", 10000)); len(got) > maxQueryBytes {
		t.Errorf("query of %d bytes kept", len(got))
	}
	if got := boundQuery(strings.Repeat("é", 20000)); !strings.HasPrefix(got, "") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("cut inside a rune")
	}
}
