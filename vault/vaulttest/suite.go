// Package vaulttest is the behaviour a vault must have, as a test suite a
// vault runs against itself.
package vaulttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Fixture is a fresh, initialized, empty store and a way to change its
// files behind its back, as a person with an editor would.
type Fixture struct {
	Store     *vault.Vault
	Scope     schema.Scope
	HandWrite func(rel string, data []byte)
}

// Run runs the suite; newFixture must return an independent store per call.
func Run(t *testing.T, newFixture func(t *testing.T) Fixture) {
	tests := []struct {
		name string
		fn   func(t *testing.T, f Fixture)
	}{
		{"WriteReadRoundTrip", testWriteRead},
		{"UniqueSlugs", testUniqueSlugs},
		{"IdenticalWriteIsNoop", testIdenticalWrite},
		{"BatchIsOneCommit", testBatch},
		{"FailedBatchWritesNothing", testFailedBatch},
		{"DeleteKeepsHistory", testDelete},
		{"ListSeesHandEdits", testListHandEdits},
		{"BlameNamesSessions", testBlame},
		{"DiffWorkTree", testDiff},
		{"ConcurrentWriters", testConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newFixture(t)) })
	}
}

var ctx = context.Background()

func memory(f Fixture, path, title, body string) *schema.Memory {
	m := schema.New(schema.KindDecision, title, time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	m.Body = body
	m.URI = schema.URI{Scope: f.Scope, Path: path}
	return m
}

func put(t *testing.T, f Fixture, meta vault.CommitMeta, ms ...*schema.Memory) vault.CommitResult {
	t.Helper()
	res, err := f.Store.Update(ctx, meta, func(tx *vault.Tx) error {
		for _, m := range ms {
			if err := tx.Put(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	return res
}

func testWriteRead(t *testing.T, f Fixture) {
	m := memory(f, "decisions/use-bleve", "Use bleve", "Pure Go full text.")
	m.Tags = []string{"search"}
	res := put(t, f, vault.CommitMeta{Verb: "remember", Session: "s1", Source: "test"}, m)
	if !res.Committed() || len(res.Changed) != 1 || res.Changed[0] != m.URI {
		t.Fatalf("result = %+v", res)
	}
	got, err := f.Store.Read(m.URI)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Use bleve" || got.Body != "Pure Go full text." || !got.HasTag("search") || got.URI != m.URI {
		t.Fatalf("read back %+v", got)
	}
	if !f.Store.Exists(m.URI) || f.Store.Exists(schema.URI{Scope: f.Scope, Path: "decisions/nope"}) {
		t.Fatal("Exists is wrong")
	}
	log, err := f.Store.Log(vault.LogOptions{URI: &m.URI})
	if err != nil || len(log) != 1 {
		t.Fatalf("log = %v, %v", log, err)
	}
	c := log[0]
	if c.Subject != "remember: "+m.URI.String() || c.Session != "s1" || c.Source != "test" || c.Verb != "remember" {
		t.Fatalf("commit = %+v", c)
	}
	if _, err := f.Store.Read(schema.URI{Scope: f.Scope, Path: "decisions/nope"}); !errors.Is(err, vault.ErrNotFound) {
		t.Fatalf("missing memory: %v", err)
	}
}

func testUniqueSlugs(t *testing.T, f Fixture) {
	var got []string
	for i := 0; i < 3; i++ {
		_, err := f.Store.Update(ctx, vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error {
			m := memory(f, "decisions/same", "Same", fmt.Sprint("body ", i))
			m.URI = tx.UniqueURI(m.URI)
			got = append(got, m.URI.Path)
			return tx.Put(m)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := "decisions/same decisions/same-2 decisions/same-3"
	if strings.Join(got, " ") != want {
		t.Fatalf("slugs %v, want %s", got, want)
	}
}

func testIdenticalWrite(t *testing.T, f Fixture) {
	m := memory(f, "decisions/x", "X", "body")
	put(t, f, vault.CommitMeta{Verb: "remember"}, m)
	res := put(t, f, vault.CommitMeta{Verb: "update"}, m)
	if res.Committed() {
		t.Fatalf("identical write made commit %s", res.Commit)
	}
	log, _ := f.Store.Log(vault.LogOptions{})
	for _, c := range log {
		if c.Verb == "update" {
			t.Fatal("an update commit exists for an identical write")
		}
	}
}

func testBatch(t *testing.T, f Fixture) {
	before, _ := f.Store.Log(vault.LogOptions{})
	a := memory(f, "decisions/a", "A", "a")
	b := memory(f, "constraints/b", "B", "b")
	res := put(t, f, vault.CommitMeta{Verb: "supersede", CodeCommit: "abc123"}, a, b)
	if len(res.Changed) != 2 {
		t.Fatalf("changed %v", res.Changed)
	}
	after, _ := f.Store.Log(vault.LogOptions{})
	if len(after) != len(before)+1 {
		t.Fatalf("%d commits for one batch", len(after)-len(before))
	}
	if !strings.Contains(after[0].Body, a.URI.String()) || !strings.Contains(after[0].Body, b.URI.String()) || after[0].CodeCommit != "abc123" {
		t.Fatalf("batch commit does not list its memories: %+v", after[0])
	}
}

func testFailedBatch(t *testing.T, f Fixture) {
	boom := errors.New("boom")
	_, err := f.Store.Update(ctx, vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error {
		if err := tx.Put(memory(f, "decisions/half", "Half", "x")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if f.Store.Exists(schema.URI{Scope: f.Scope, Path: "decisions/half"}) {
		t.Fatal("a failed batch wrote a file")
	}
	invalid := memory(f, "decisions/bad", "", "no title")
	_, err = f.Store.Update(ctx, vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error { return tx.Put(invalid) })
	if !errors.Is(err, schema.ErrInvalid) {
		t.Fatalf("invalid memory accepted: %v", err)
	}
}

func testDelete(t *testing.T, f Fixture) {
	m := memory(f, "decisions/gone", "Gone", "to be forgotten")
	put(t, f, vault.CommitMeta{Verb: "remember"}, m)
	_, err := f.Store.Update(ctx, vault.CommitMeta{Verb: "forget"}, func(tx *vault.Tx) error { return tx.Delete(m.URI) })
	if err != nil {
		t.Fatal(err)
	}
	if f.Store.Exists(m.URI) {
		t.Fatal("still exists")
	}
	old, err := f.Store.Show("HEAD~1", m.URI)
	if err != nil || !strings.Contains(string(old), "to be forgotten") {
		t.Fatalf("history lost the memory: %v", err)
	}
	if _, err := f.Store.Show("HEAD", m.URI); !errors.Is(err, vault.ErrNotFound) {
		t.Fatalf("show at HEAD: %v", err)
	}
}

func testListHandEdits(t *testing.T, f Fixture) {
	put(t, f, vault.CommitMeta{Verb: "remember"}, memory(f, "decisions/a", "A", "a"))
	f.HandWrite("decisions/hand.md", []byte("---\nkind: decision\ntitle: By hand\n---\nWritten in an editor.\n"))
	f.HandWrite("decisions/broken.md", []byte("---\nkind: nope\ntitle: Broken\n---\n"))
	es, err := f.Store.List(vault.ListOptions{Parse: true})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]vault.Entry{}
	for _, e := range es {
		byPath[e.URI.Path] = e
	}
	if e := byPath["decisions/hand"]; e.Memory == nil || e.Memory.Title != "By hand" {
		t.Fatalf("hand-written memory not listed: %+v", e)
	}
	if e := byPath["decisions/broken"]; e.Err == nil || !errors.Is(e.Err, schema.ErrInvalid) {
		t.Fatalf("broken memory not reported: %+v", e)
	}
	pre, _ := f.Store.List(vault.ListOptions{Prefix: "decisions/h"})
	if len(pre) != 1 {
		t.Fatalf("prefix listing = %v", pre)
	}
}

func testBlame(t *testing.T, f Fixture) {
	m := memory(f, "decisions/b", "B", "line one")
	put(t, f, vault.CommitMeta{Verb: "remember", Session: "first"}, m)
	m.Body = "line one\nline two"
	put(t, f, vault.CommitMeta{Verb: "update", Session: "second"}, m)
	lines, err := f.Store.Blame(m.URI)
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string]string{}
	for _, l := range lines {
		sessions[l.Text] = l.Session
	}
	if sessions["line one"] != "first" || sessions["line two"] != "second" {
		t.Fatalf("blame sessions = %v", sessions)
	}
}

func testDiff(t *testing.T, f Fixture) {
	put(t, f, vault.CommitMeta{Verb: "remember"}, memory(f, "decisions/d", "D", "before"))
	f.HandWrite("decisions/d.md", []byte("---\nkind: decision\ntitle: D\n---\n\nafter\n"))
	ds, err := f.Store.Diff(vault.DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].State != vault.Modified || !strings.Contains(ds[0].Patch, "+after") || !strings.Contains(ds[0].Patch, "-before") {
		t.Fatalf("diff = %+v", ds)
	}
}

func testConcurrent(t *testing.T, f Fixture) {
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				_, err := f.Store.Update(ctx, vault.CommitMeta{Verb: "remember"}, func(tx *vault.Tx) error {
					m := memory(f, "events/e", fmt.Sprintf("w%d-%d", w, i), "x")
					m.URI = tx.UniqueURI(m.URI)
					return tx.Put(m)
				})
				errs <- err
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	es, _ := f.Store.List(vault.ListOptions{Prefix: "events/"})
	if len(es) != writers*each {
		t.Fatalf("%d memories, want %d", len(es), writers*each)
	}
	log, _ := f.Store.Log(vault.LogOptions{})
	if got := len(log); got < writers*each {
		t.Fatalf("%d commits for %d writes", got, writers*each)
	}
}
