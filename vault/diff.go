package vault

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairnmem/cairn/schema"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// DiffOptions selects the two sides of a diff.
type DiffOptions struct {
	From string      // revision; "" is HEAD
	To   string      // revision; "" is the work tree
	URI  *schema.URI // only this memory
}

// FileDiff is one changed file with a unified patch.
type FileDiff struct {
	FileStatus
	Patch string `json:"patch"`
}

// Diff compares two revisions, or a revision with the work tree, and
// returns unified patches in git's format.
func (v *Vault) Diff(opts DiffOptions) ([]FileDiff, error) {
	repo, err := v.Repo()
	if err != nil {
		return nil, err
	}
	fromC, err := v.resolve(repo, opts.From)
	if err != nil {
		return nil, err
	}
	from, err := treeSnapshot(repo, fromC)
	if err != nil {
		return nil, err
	}
	var to snapshot
	var toC *object.Commit
	if opts.To == "" {
		to, err = v.workSnapshot(repo)
	} else {
		if toC, err = v.resolve(repo, opts.To); err == nil {
			to, err = treeSnapshot(repo, toC)
		}
	}
	if err != nil {
		return nil, err
	}
	prefix := ""
	if opts.URI != nil {
		prefix = opts.URI.RelPath()
	}
	var out []FileDiff
	for _, st := range compareSnapshots(from, to, v.Scope, prefix) {
		oldText, err := blobText(repo, from[st.Path])
		if err != nil {
			return nil, err
		}
		var newText string
		if toC == nil {
			if st.State != Deleted {
				b, err := os.ReadFile(filepath.Join(v.Root, filepath.FromSlash(st.Path)))
				if err != nil {
					return nil, err
				}
				newText = string(b)
			}
		} else if newText, err = blobText(repo, to[st.Path]); err != nil {
			return nil, err
		}
		patch, err := unifiedPatch(st, from[st.Path], to[st.Path], oldText, newText)
		if err != nil {
			return nil, err
		}
		out = append(out, FileDiff{FileStatus: st, Patch: patch})
	}
	return out, nil
}

func blobText(repo *git.Repository, h plumbing.Hash) (string, error) {
	if h.IsZero() {
		return "", nil
	}
	b, err := repo.BlobObject(h)
	if err != nil {
		return "", fmt.Errorf("read blob %s: %w", h, err)
	}
	r, err := b.Reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(r)
	return buf.String(), err
}

// unifiedPatch renders one file's change with go-git's unified encoder.
func unifiedPatch(st FileStatus, fromHash, toHash plumbing.Hash, oldText, newText string) (string, error) {
	fp := &filePatch{}
	if st.State != Added {
		fp.from = &patchFile{path: st.Path, hash: fromHash}
	}
	if st.State != Deleted {
		fp.to = &patchFile{path: st.Path, hash: toHash}
	}
	for _, d := range diff.Do(oldText, newText) {
		op := fdiff.Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = fdiff.Add
		case diffmatchpatch.DiffDelete:
			op = fdiff.Delete
		}
		fp.chunks = append(fp.chunks, chunk{content: d.Text, op: op})
	}
	var buf bytes.Buffer
	if err := fdiff.NewUnifiedEncoder(&buf, fdiff.DefaultContextLines).Encode(patch{fp}); err != nil {
		return "", err
	}
	return buf.String(), nil
}

type patch []fdiff.FilePatch

func (p patch) FilePatches() []fdiff.FilePatch { return p }
func (p patch) Message() string                { return "" }

type filePatch struct {
	from, to *patchFile
	chunks   []fdiff.Chunk
}

func (f *filePatch) IsBinary() bool { return false }
func (f *filePatch) Files() (fdiff.File, fdiff.File) {
	// A nil *patchFile must become a nil interface for the encoder.
	var a, b fdiff.File
	if f.from != nil {
		a = f.from
	}
	if f.to != nil {
		b = f.to
	}
	return a, b
}
func (f *filePatch) Chunks() []fdiff.Chunk { return f.chunks }

type patchFile struct {
	path string
	hash plumbing.Hash
}

func (p *patchFile) Hash() plumbing.Hash     { return p.hash }
func (p *patchFile) Mode() filemode.FileMode { return filemode.Regular }
func (p *patchFile) Path() string            { return p.path }

type chunk struct {
	content string
	op      fdiff.Operation
}

func (c chunk) Content() string       { return c.content }
func (c chunk) Type() fdiff.Operation { return c.op }
