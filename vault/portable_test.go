package vault_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Paths that differ only in case are two files on Linux and one on macOS
// and Windows; the vault refuses to make such a pair on any platform.
func TestCaseTwinsRefused(t *testing.T) {
	v := newVault(t)
	remember(t, v, "events/use-bleve", "Use bleve")
	for _, p := range []string{"events/Use-Bleve", "Events/other", "events/USE-BLEVE"} {
		m := schema.New(schema.KindEvent, "Twin", time.Now())
		m.URI = schema.URI{Scope: v.Scope, Path: p}
		_, err := v.Create(context.Background(), m, vault.CommitMeta{})
		if !errors.Is(err, schema.ErrBadURI) || !strings.Contains(err.Error(), "only in letter case") {
			t.Fatalf("create %s: %v; want a case collision error", p, err)
		}
		if _, err := os.Stat(filepath.Join(v.Root, filepath.FromSlash(p)+".md")); !os.IsNotExist(err) {
			t.Fatalf("%s was written despite the error", p)
		}
	}
	remember(t, v, "events/use-bleve-2", "Not a twin") // differs by more than case
}

func TestHandEditCaseTwins(t *testing.T) {
	v := newVault(t)
	u := remember(t, v, "events/foo", "Foo")
	data, err := v.ReadFile(u)
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, b []byte) {
		t.Helper()
		p := filepath.Join(v.Root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A twin made by hand is left out; the other edit still commits.
	write("events/FOO.md", data)
	write("events/bar.md", []byte(strings.Replace(string(data), "title: Foo", "title: Bar", 1)))
	res, err := v.CommitWorkTree(context.Background(), vault.CommitMeta{}, vault.HandEditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "events/bar.md" {
		t.Fatalf("committed %+v, want only events/bar.md", res.Files)
	}
	if len(res.Rejected) != 1 || res.Rejected[0].Path != "events/FOO.md" || !strings.Contains(res.Rejected[0].Err.Error(), "events/foo.md") {
		t.Fatalf("rejected %+v, want events/FOO.md naming events/foo.md", res.Rejected)
	}
	rep := v.Doctor()
	found := false
	for _, p := range rep.Problems {
		found = found || (p.Code == "case-collision" && strings.Contains(p.Message, "FOO.md") && strings.Contains(p.Message, "foo.md"))
	}
	if !found {
		t.Fatalf("doctor did not report the collision: %+v", rep.Problems)
	}

	// A rename that changes only the case is a rename, not a collision.
	os.Remove(filepath.Join(v.Root, "events", "FOO.md"))
	if err := os.Rename(filepath.Join(v.Root, "events", "foo.md"), filepath.Join(v.Root, "events", "Foo.md")); err != nil {
		t.Fatal(err)
	}
	res, err = v.CommitWorkTree(context.Background(), vault.CommitMeta{}, vault.HandEditOptions{})
	if err != nil || len(res.Rejected) != 0 || len(res.Files) != 2 {
		t.Fatalf("case-only rename: %+v, %v", res, err)
	}
	if v.InHead("events/foo.md") || !v.InHead("events/Foo.md") {
		t.Fatal("the rename did not reach HEAD")
	}
}

// Files saved by Windows editors (a BOM, CRLF) are committed, and cairn's
// own rewrite of them (the updated stamp) keeps both.
func TestHandEditWindowsEncoding(t *testing.T) {
	v := newVault(t)
	text := "\ufeff---\r\nkind: decision\r\ntitle: Written in Notepad\r\ncreated: 2026-01-01T00:00:00Z\r\nupdated: 2026-01-01T00:00:00Z\r\n---\r\n\r\nBody line one.\r\nLine two.\r\n"
	p := filepath.Join(v.Root, "decisions", "notepad.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := v.CommitWorkTree(context.Background(), vault.CommitMeta{}, vault.HandEditOptions{})
	if err != nil || len(res.Files) != 1 || len(res.Rejected) != 0 {
		t.Fatalf("commit: %+v, %v", res, err)
	}
	out, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "updated: 2026-01-01") {
		t.Fatalf("the commit did not stamp updated, so nothing was rewritten:\n%q", s)
	}
	if !strings.HasPrefix(s, "\ufeff---\r\n") || strings.Count(s, "\n") != strings.Count(s, "\r\n") {
		t.Fatalf("rewrite lost the BOM or mixed line endings:\n%q", s)
	}
	m, err := v.Read(schema.URI{Scope: v.Scope, Path: "decisions/notepad"})
	if err != nil || m.Body != "Body line one.\nLine two." {
		t.Fatalf("read back: %v %q", err, m.Body)
	}
}
