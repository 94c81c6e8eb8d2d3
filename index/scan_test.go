package index

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// scanners are the two forms of the stat walk. Both build on Linux, so the
// listing walk that Windows uses is tested here against the same
// expectations as the descriptor walk Linux and macOS use.
var scanners = map[string]func(string, *manifest) (*scanResult, error){"native": scan, "list": scanList}

// manifestFrom records a first scan as a built manifest would, with a
// write time after every file's mtime so nothing is racy.
func manifestFrom(r *scanResult) *manifest {
	m := newManifest()
	e := m.edit()
	var latest int64
	for p, s := range r.added {
		f := &fileEntry{path: p, row: -1}
		f.setStat(s)
		e.add(f)
		latest = max(latest, s.mtime)
	}
	e.commit()
	m.setDirs(r.dirs)
	for _, d := range m.dirs {
		latest = max(latest, d.mtime)
	}
	m.writtenAt = latest + 1
	return m
}

func writeFile(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func TestScanFormsAgree(t *testing.T) {
	for name, scanFn := range scanners {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			past := time.Now().Add(-time.Hour)
			for _, p := range []string{"decisions/a.md", "decisions/b.md", "decisions/gone.md", "profile/me.md", "deep/x/y.md", "deep/x/link.md"} {
				writeFile(t, filepath.Join(root, p), "---\nkind: decision\n---\n"+p, past)
			}
			writeFile(t, filepath.Join(root, "README.md"), "root files are not memories", past)
			writeFile(t, filepath.Join(root, ".cache", "x.md"), "dot dirs are skipped", past)
			writeFile(t, filepath.Join(root, "decisions", "notes.txt"), "not markdown", past)

			r1, err := scanFn(root, newManifest())
			if err != nil {
				t.Fatal(err)
			}
			want1 := []string{"decisions/a.md", "decisions/b.md", "decisions/gone.md", "deep/x/link.md", "deep/x/y.md", "profile/me.md"}
			if got := sortedKeys(r1.added); !slices.Equal(got, want1) {
				t.Fatalf("first scan added %v, want %v", got, want1)
			}
			if !r1.dirty || len(r1.dirs) != 5 { // "", decisions, deep, deep/x, profile
				t.Fatalf("first scan: dirty %v, dirs %v", r1.dirty, r1.dirs)
			}

			m := manifestFrom(r1)
			r2, err := scanFn(root, m)
			if err != nil {
				t.Fatal(err)
			}
			if len(r2.suspect) != 0 || len(r2.deleted) != 0 || len(r2.added) != 0 || r2.dirty {
				t.Fatalf("unchanged tree: suspect %v deleted %v added %v dirty %v", r2.suspect, r2.deleted, r2.added, r2.dirty)
			}

			now := time.Now()
			writeFile(t, filepath.Join(root, "decisions", "a.md"), "changed content, longer than before", now)
			writeFile(t, filepath.Join(root, "decisions", "new.md"), "new", now)
			writeFile(t, filepath.Join(root, "threads", "t.md"), "new dir", now)
			os.Remove(filepath.Join(root, "decisions", "gone.md"))
			os.Remove(filepath.Join(root, "deep", "x", "link.md"))
			if err := os.Symlink(filepath.Join(root, "profile", "me.md"), filepath.Join(root, "deep", "x", "link.md")); err != nil {
				t.Fatal(err)
			}
			r3, err := scanFn(root, m)
			if err != nil {
				t.Fatal(err)
			}
			wantAdded := []string{"decisions/new.md", "threads/t.md"}
			wantSuspect := []string{"decisions/a.md", "decisions/new.md", "threads/t.md"}
			wantDeleted := []string{"decisions/gone.md", "deep/x/link.md"} // a symlink is not a memory file
			if got := sortedKeys(r3.added); !slices.Equal(got, wantAdded) {
				t.Errorf("added %v, want %v", got, wantAdded)
			}
			if got := sorted(r3.suspect); !slices.Equal(got, wantSuspect) {
				t.Errorf("suspect %v, want %v", got, wantSuspect)
			}
			if got := sorted(r3.deleted); !slices.Equal(got, wantDeleted) {
				t.Errorf("deleted %v, want %v", got, wantDeleted)
			}
			if !r3.dirty {
				t.Error("new directory and entries, but not dirty")
			}
			s, ok := r3.statOf("decisions/a.md")
			if !ok || s.size != int64(len("changed content, longer than before")) || s.mtime != now.UnixNano() {
				t.Errorf("stat of the changed file: %+v %v", s, ok)
			}
			if s, ok := r3.statOf("decisions/new.md"); !ok || s.size != int64(len("new")) {
				t.Errorf("stat of an added file: %+v %v", s, ok)
			}
		})
	}
}

// TestScanListRacy: a file rewritten in the manifest's clock tick keeps
// size and mtime; only its mtime not being before the manifest's write
// time sends it to be hashed. Without inode and ctime (Windows) this is
// the only guard.
func TestScanListRacy(t *testing.T) {
	root := t.TempDir()
	tick := time.Now().Truncate(time.Second)
	writeFile(t, filepath.Join(root, "decisions", "a.md"), "aaaa", tick)
	r1, err := scanList(root, newManifest())
	if err != nil {
		t.Fatal(err)
	}
	m := manifestFrom(r1)
	m.writtenAt = tick.UnixNano() // the manifest was written in the same tick
	writeFile(t, filepath.Join(root, "decisions", "a.md"), "bbbb", tick)
	r2, err := scanList(root, m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r2.suspect, []string{"decisions/a.md"}) {
		t.Fatalf("racy file not suspect: %v", r2.suspect)
	}
}

// TestScanSubdirAmongFiles: a subdirectory whose name sorts among its
// parent's files splits them into several runs of the sorted manifest;
// each run is still stat'ed, so an in-place edit after the split is seen.
func TestScanSubdirAmongFiles(t *testing.T) {
	for name, scanFn := range scanners {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			past := time.Now().Add(-time.Hour)
			for _, p := range []string{"deep/a.md", "deep/a/b.md", "deep/a-z.md", "deep/c.md"} {
				writeFile(t, filepath.Join(root, p), "same", past)
			}
			r1, err := scanFn(root, newManifest())
			if err != nil {
				t.Fatal(err)
			}
			m := manifestFrom(r1)
			if got := []string{m.files[0].path, m.files[1].path, m.files[2].path, m.files[3].path}; !slices.Equal(got, []string{"deep/a-z.md", "deep/a.md", "deep/a/b.md", "deep/c.md"}) {
				t.Fatalf("manifest order %v: the runs this test needs are not there", got)
			}
			for _, p := range []string{"deep/a-z.md", "deep/c.md", "deep/a/b.md"} {
				writeFile(t, filepath.Join(root, p), "edit", past.Add(time.Second)) // in place: same size, same directory listing
			}
			r2, err := scanFn(root, m)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sorted(r2.suspect), []string{"deep/a-z.md", "deep/a/b.md", "deep/c.md"}; !slices.Equal(got, want) {
				t.Fatalf("suspect %v, want %v", got, want)
			}
			if len(r2.deleted) != 0 || len(r2.added) != 0 {
				t.Fatalf("deleted %v added %v", r2.deleted, r2.added)
			}
		})
	}
}

func TestScanMissingRoot(t *testing.T) {
	for name, scanFn := range scanners {
		if _, err := scanFn(filepath.Join(t.TempDir(), "nope"), newManifest()); err == nil {
			t.Errorf("%s: a missing vault root scanned without error", name)
		}
	}
}

func sortedKeys(m map[string]fileStat) []string { return slices.Sorted(maps.Keys(m)) }

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// BenchmarkScanUnchanged is the stat walk alone over a tree the manifest
// knows, nothing changed: the hand-edit check every read pays.
func BenchmarkScanUnchanged(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			root := b.TempDir()
			past := time.Now().Add(-time.Hour)
			dirs := []string{"cases", "constraints", "decisions", "events", "outcomes", "patterns", "preferences", "sessions", "threads"}
			for i := 0; i < n; i++ {
				p := filepath.Join(root, dirs[i%len(dirs)], fmt.Sprintf("2025-01-%02d-memory-about-something-%d.md", i%28+1, i))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("---\nkind: decision\n---\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				if err := os.Chtimes(p, past, past); err != nil {
					b.Fatal(err)
				}
			}
			r, err := scan(root, newManifest())
			if err != nil {
				b.Fatal(err)
			}
			m := manifestFrom(r)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := scan(root, m)
				if err != nil || len(r.suspect) != 0 || r.dirty {
					b.Fatalf("scan: %v, %d suspect, dirty %v", err, len(r.suspect), r.dirty)
				}
			}
		})
	}
}
