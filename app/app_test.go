package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

func TestParseWhen(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{"", time.Time{}, false},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), false},
		{"36h", now.Add(-36 * time.Hour), false},
		{"7d", now.AddDate(0, 0, -7), false},
		{"2w", now.AddDate(0, 0, -14), false},
		{"3mo", now.Add(-90 * 24 * time.Hour), false},
		{"1y", now.Add(-365 * 24 * time.Hour), false},
		{"30m", now.Add(-30 * time.Minute), false},
		{"last tuesday", time.Time{}, true},
		{"-3d", time.Time{}, true},
	} {
		got, err := ParseWhen(tc.in, now)
		switch {
		case tc.bad && !errors.Is(err, ErrBadRequest):
			t.Errorf("%q: err %v, want a bad request", tc.in, err)
		case !tc.bad && (err != nil || !got.Equal(tc.want)):
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// The user vault is made on first need, once, and opened from then on.
func TestEnsureUser(t *testing.T) {
	dir := t.TempDir()
	var warned []string
	a := New(Options{UserVault: filepath.Join(dir, "user"), Dir: dir, Warn: func(m string) { warned = append(warned, m) }})
	if _, err := a.User(); !errors.Is(err, vault.ErrNotVault) {
		t.Fatalf("before: %v, want no vault", err)
	}
	v, created, err := a.EnsureUser(context.Background())
	if err != nil || !created || v.Scope != schema.ScopeUser {
		t.Fatalf("EnsureUser: %v %v %v", v, created, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "user", "cairn.yaml")); err != nil {
		t.Fatal(err)
	}
	if u, err := a.User(); err != nil || u != v {
		t.Fatalf("after: %v %v", u, err)
	}
	if _, created, _ := a.EnsureUser(context.Background()); created || len(warned) != 1 {
		t.Fatalf("second EnsureUser created=%v, warnings %q", created, warned)
	}
	// Vaults given by the caller are never looked for or made on disk.
	b := New(Options{Vaults: map[schema.Scope]*vault.Vault{schema.ScopeUser: nil}, UserVault: filepath.Join(dir, "other")})
	if _, _, err := b.EnsureUser(context.Background()); err == nil {
		t.Fatal("a preset missing user vault was created")
	}
}
