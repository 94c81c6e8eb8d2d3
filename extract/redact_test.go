package extract

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/internal/golden"
)

func lines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(golden.Path("redact", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
	return out
}

// Every real-looking secret in the corpus is redacted, and no part of its
// value survives.
func TestRedactsSecrets(t *testing.T) {
	r, _ := NewRedactor(nil)
	for _, l := range lines(t, "secrets.txt") {
		out, fs := r.Redact(l)
		if len(fs) == 0 || !strings.Contains(out, "[REDACTED:") {
			t.Errorf("secret survived: %q", l)
			continue
		}
		// No long token of the input may appear in the output (in a
		// connection string, the host stays and the password goes); a
		// token wrapped over lines goes entirely.
		if strings.Contains(l, "://") {
			continue
		}
		for _, w := range strings.FieldsFunc(l, func(c rune) bool { return strings.ContainsRune(" =:@'\"\n", c) }) {
			if len(w) >= 16 && strings.ContainsAny(w, "0123456789") && strings.Contains(out, w) {
				t.Errorf("secret value %q kept in %q", w, out)
			}
		}
	}
}

// Look-alikes (hashes, ids, paths, variables, prose) are left alone.
func TestKeepsLookalikes(t *testing.T) {
	r, _ := NewRedactor(nil)
	for _, l := range lines(t, "lookalikes.txt") {
		if out, fs := r.Redact(l); len(fs) > 0 {
			t.Errorf("look-alike redacted: %q → %q (%v)", l, out, fs)
		}
	}
}

func TestUserRulesAndFindingLines(t *testing.T) {
	r, err := NewRedactor([]string{`ACME-[0-9]{6}`})
	if err != nil {
		t.Fatal(err)
	}
	out, fs := r.Redact("line one\nticket ACME-123456 here")
	if len(fs) != 1 || fs[0].Line != 2 || fs[0].Rule != "user-rule-1" || strings.Contains(out, "ACME-123456") {
		t.Fatalf("user rule: %q %+v", out, fs)
	}
	if _, err := NewRedactor([]string{"("}); err == nil {
		t.Fatal("a broken user rule was accepted")
	}
}

// A memory body can be one line of megabytes full of hint words ("token",
// "key"): the scan stays linear (it took minutes when every attempt
// looked for the end of the line).
func TestScanLongLineIsLinear(t *testing.T) {
	r, _ := NewRedactor(nil)
	line := strings.Repeat("token42 cache_key passes auth ", 140000) // 4 MB, no newline
	start := time.Now()
	if fs := r.Scan(line); len(fs) != 0 {
		t.Fatalf("findings in plain words: %v", fs[:1])
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("scanning 4 MB took %s", took)
	}
}
