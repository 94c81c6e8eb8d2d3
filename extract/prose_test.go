package extract

import (
	"testing"
)

func TestPlainEmphasis(t *testing.T) {
	for in, want := range map[string]string{
		"registered twice in `opk/cli/__main__.py` (once)": "registered twice in `opk/cli/__main__.py` (once)",
		"**Root cause**: the **mock** was stale":           "Root cause: the mock was stale",
		"use __init__ and __bold words__ here":             "use __init__ and bold words here",
		"**bold**":                                         "bold",
		"changed `func(_ context.Context, _, update any)` to `func(_ context.Context, _, update any, _ ...any)`": "changed `func(_ context.Context, _, update any)` to `func(_ context.Context, _, update any, _ ...any)`",
		"**`Upsert` loop** over _two_ queries": "`Upsert` loop over two queries",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}
