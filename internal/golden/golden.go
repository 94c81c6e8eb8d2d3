// Package golden compares test output with files under the repository's
// top-level testdata/golden directory. Run tests with -update to rewrite them.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// Dir is the absolute path of the repository's testdata directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Path returns the absolute path of a file under testdata.
func Path(rel ...string) string {
	return filepath.Join(append([]string{Dir()}, rel...)...)
}

// Assert compares got with testdata/golden/<name>, or rewrites the file
// when the test runs with -update.
func Assert(t testing.TB, name string, got []byte) {
	t.Helper()
	path := Path("golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run with -update to create it)", name, err)
	}
	if string(want) != string(got) {
		t.Errorf("golden %s differs (-want +got):\n%s\nrun with -update if the change is intended", name, lineDiff(string(want), string(got)))
	}
}

func lineDiff(a, b string) string {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var out []byte
	for _, d := range diffs {
		prefix := "  "
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			prefix = "- "
		case diffmatchpatch.DiffInsert:
			prefix = "+ "
		}
		for _, l := range splitKeep(d.Text) {
			out = append(out, prefix...)
			out = append(out, l...)
		}
	}
	return string(out)
}

func splitKeep(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		if i < len(s) {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}
