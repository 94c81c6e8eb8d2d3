package index

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestManifestRoundTripAndCorruption(t *testing.T) {
	m := newManifest()
	m.Commit, m.Embedder = "abc", EmbedderInfo{Name: "lexical", Dims: 8, Version: 2}
	e := m.edit()
	e.add(&fileEntry{path: "decisions/b.md", size: 10, mtime: 5, ctime: 6, ino: 7, row: 1, hash: [20]byte{1},
		meta: docMeta{kind: 4, status: 1, updated: 1700000100, created: 1700000000, session: sessionKey("s1")}})
	e.add(&fileEntry{path: "decisions/a.md", row: -1, flags: flagInvalid})
	e.commit()
	m.setDirs([]dirEntry{{path: "decisions", mtime: 3}, {path: ""}})
	data := m.encode()
	got, err := decodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.files) != 2 || got.files[0].path != "decisions/a.md" || got.files[1].ino != 7 || got.files[1].hash[0] != 1 ||
		got.files[0].flags != flagInvalid || got.dirs[1].path != "decisions" || got.Commit != "abc" ||
		got.files[1].meta != (docMeta{kind: 4, status: 1, updated: 1700000100, created: 1700000000, session: sessionKey("s1")}) {
		t.Fatalf("round trip: %+v", got)
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x40
		if _, err := decodeManifest(bad); err == nil {
			// A flipped bit must never decode silently.
			t.Fatalf("bit flip at %d decoded", i)
		} else if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("bit flip at %d: %v", i, err)
		}
	}
	if _, err := decodeManifest(data[:len(data)/2]); !errors.Is(err, ErrCorrupt) {
		t.Fatal("truncated manifest decoded")
	}
}

func TestLexicalVectors(t *testing.T) {
	l := NewLexical(128)
	vs, _ := l.EmbedDocs(context.Background(), []string{"", "the of and", "Deploying the deployment pipeline", "Bananas are yellow"})
	for i, v := range vs[:2] {
		for _, x := range v {
			if x != 0 || math.IsNaN(float64(x)) {
				t.Fatalf("text %d (no content words) gave a non-zero or NaN vector", i)
			}
		}
	}
	q, _ := l.EmbedQuery(context.Background(), "deploy pipelines", func(string) float64 { return 1 })
	var dot, other float32
	for i := range q {
		dot += q[i] * vs[2][i]
		other += q[i] * vs[3][i]
	}
	if dot < l.MinCosine() || dot <= other {
		t.Fatalf("related %.3f, unrelated %.3f, floor %.3f", dot, other, l.MinCosine())
	}
	var n float64
	for _, x := range vs[2] {
		n += float64(x * x)
	}
	if math.Abs(n-1) > 1e-5 {
		t.Fatalf("not unit length: %v", n)
	}
}

func TestVectorFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.f32")
	w, err := openVectorWriter(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	w.set(2, []float32{1, 0, 0, 0})
	w.set(0, []float32{0, 1, 0, 0})
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	v, err := openVectors(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer v.close()
	if v.rows != 3 || v.dot([]float32{1, 0, 0, 0}, 2) != 1 || v.dot([]float32{1, 0, 0, 0}, 1) != 0 || v.dot([]float32{1, 0, 0, 0}, 9) != 0 {
		t.Fatalf("rows %d", v.rows)
	}
	if _, err := openVectors(path, 8); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("wrong dims accepted: %v", err)
	}
	os.WriteFile(path, []byte("CVEC"), 0o644)
	if _, err := openVectors(path, 4); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated file accepted: %v", err)
	}
}

// TestVectorScoreAll: scoring every row in one pass, releasing pages
// behind it, gives each row's own dot product, and the rows read again
// afterwards (from released pages) are unchanged.
func TestVectorScoreAll(t *testing.T) {
	const dims, rows = 384, 2000 // about 3 MiB: several release chunks
	path := filepath.Join(t.TempDir(), "v.f32")
	w, err := openVectorWriter(path, dims)
	if err != nil {
		t.Fatal(err)
	}
	row := func(i int) []float32 {
		r := make([]float32, dims)
		r[i%dims] = float32(i + 1)
		return r
	}
	for i := 0; i < rows; i++ {
		if err := w.set(i, row(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	v, err := openVectors(path, dims)
	if err != nil {
		t.Fatal(err)
	}
	defer v.close()
	q := make([]float32, dims)
	for k := range q {
		q[k] = float32(k%7) - 3
	}
	got := v.scoreAll(q)
	if len(got) != rows {
		t.Fatalf("%d scores for %d rows", len(got), rows)
	}
	for i := 0; i < rows; i++ {
		want := q[i%dims] * float32(i+1)
		if got[i] != want || v.dot(q, i) != want {
			t.Fatalf("row %d: scoreAll %v, dot after release %v, want %v", i, got[i], v.dot(q, i), want)
		}
	}
	if s := v.scoreAll(make([]float32, dims+1)); len(s) != rows || s[0] != 0 {
		t.Fatalf("a query of the wrong length scored %v", s[:1])
	}
}
