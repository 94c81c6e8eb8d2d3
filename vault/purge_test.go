package vault_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// history is every file version and commit message reachable from HEAD.
func history(t *testing.T, root string) (texts []string, commits int) {
	t.Helper()
	repo, err := git.PlainOpen(root)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	it, err := repo.Log(&git.LogOptions{From: head.Hash()})
	if err != nil {
		t.Fatal(err)
	}
	_ = it.ForEach(func(c *object.Commit) error {
		commits++
		texts = append(texts, c.Message)
		files, _ := c.Files()
		return files.ForEach(func(f *object.File) error {
			s, _ := f.Contents()
			texts = append(texts, f.Name+"\n"+s)
			return nil
		})
	})
	return texts, commits
}

func purgeVault(t *testing.T) *vault.Vault {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, title, body, why string) {
		m := schema.New(schema.KindDecision, title, v.Now())
		m.URI = schema.URI{Scope: schema.ScopeProject, Path: path}
		m.Body = body
		if _, err := v.Update(ctx, vault.CommitMeta{Verb: "remember", Body: why}, func(tx *vault.Tx) error { return tx.Put(m) }); err != nil {
			t.Fatal(err)
		}
	}
	write("decisions/codename", "Codename", "The project is called BLUEBIRD-7 inside.", "said by the vendor: BLUEBIRD-7")
	write("decisions/keep", "Keep this", "Nothing secret here.", "")
	write("decisions/codename", "Codename", "The project is called BLUEBIRD-7 inside, say it rarely.", "")
	return v
}

func TestPurge(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    vault.PurgeOptions
		gone    []string // in no file version and no message
		kept    []string // still somewhere in history
		changed bool
		err     bool
	}{
		{name: "a pattern, in files and messages", opts: vault.PurgeOptions{Pattern: regexp.MustCompile(`BLUEBIRD-[0-9]+`)},
			gone: []string{"BLUEBIRD"}, kept: []string{"[PURGED]", "Nothing secret here."}, changed: true},
		{name: "a replacement of one's own", opts: vault.PurgeOptions{Pattern: regexp.MustCompile(`BLUEBIRD-[0-9]+`), Replacement: "the codename"},
			gone: []string{"BLUEBIRD"}, kept: []string{"called the codename inside"}, changed: true},
		{name: "a file, from every commit", opts: vault.PurgeOptions{Paths: []string{"decisions/codename.md"}},
			gone: []string{"decisions/codename.md\n"}, kept: []string{"Nothing secret here.", "said by the vendor"}, changed: true},
		{name: "nothing matches", opts: vault.PurgeOptions{Pattern: regexp.MustCompile(`NOT-THERE`)}, kept: []string{"BLUEBIRD-7"}},
		{name: "nothing asked", opts: vault.PurgeOptions{}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := purgeVault(t)
			// An uncommitted edit and the journal hold the text too.
			os.WriteFile(filepath.Join(v.Root, "decisions", "keep.md"), []byte("---\nkind: decision\ntitle: Keep this\n---\nBLUEBIRD-7 slipped into an edit.\n"), 0o644)
			os.MkdirAll(filepath.Join(v.Root, ".journal"), 0o755)
			os.WriteFile(filepath.Join(v.Root, ".journal", "s1.jsonl"), []byte(`{"prompt":"BLUEBIRD-7"}`+"\n"), 0o644)
			_, before := history(t, v.Root)
			oldHead, _ := v.Head()
			rep, err := v.Purge(context.Background(), tc.opts)
			if tc.err {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rep.ChangedAny != tc.changed {
				t.Fatalf("changed = %v, want %v (%+v)", rep.ChangedAny, tc.changed, rep)
			}
			texts, after := history(t, v.Root)
			if after != before {
				t.Errorf("%d commits after, %d before: a purge keeps every commit", after, before)
			}
			all := strings.Join(texts, "\n")
			for _, g := range tc.gone {
				if strings.Contains(all, g) {
					t.Errorf("%q is still in history", g)
				}
			}
			for _, k := range tc.kept {
				if !strings.Contains(all, k) {
					t.Errorf("%q is gone from history, it should stay", k)
				}
			}
			head, _ := v.Head()
			repo, _ := git.PlainOpen(v.Root)
			if !tc.changed {
				if head != oldHead || rep.Backup != "" {
					t.Fatalf("an empty purge moved HEAD or made a backup: %+v", rep)
				}
				return
			}
			// The old history stays reachable from the backup ref.
			ref, err := repo.Reference(plumbing.ReferenceName(rep.Backup), true)
			if err != nil || ref.Hash().String() != oldHead || rep.OldHead != oldHead || rep.NewHead != head {
				t.Fatalf("backup %s: %v; report %+v, head %s, old %s", rep.Backup, err, rep, head, oldHead)
			}
			if tc.opts.Pattern != nil {
				for _, p := range []string{filepath.Join("decisions", "keep.md"), filepath.Join(".journal", "s1.jsonl")} {
					data, _ := os.ReadFile(filepath.Join(v.Root, p))
					if strings.Contains(string(data), "BLUEBIRD") {
						t.Errorf("%s still holds the text", p)
					}
				}
			}
		})
	}
}
