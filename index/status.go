package index

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
)

// Status describes a cache without changing it.
type Status struct {
	Vault       string       `json:"vault"`
	Scope       string       `json:"scope"`
	Cache       string       `json:"cache"`
	Generation  string       `json:"generation,omitempty"`
	Embedder    EmbedderInfo `json:"embedder"`   // what made the stored vectors
	Configured  EmbedderInfo `json:"configured"` // what cairn.yaml asks for
	Commit      string       `json:"indexed_commit,omitempty"`
	Head        string       `json:"head,omitempty"`
	Docs        int          `json:"docs"`
	NoVector    int          `json:"without_vectors"`
	Invalid     []Invalid    `json:"invalid"`
	Stale       []Change     `json:"stale"` // work-tree changes not yet indexed
	Bytes       int64        `json:"bytes"`
	NeedRebuild string       `json:"needs_rebuild,omitempty"` // why, when the cache cannot be used as is
	// NotBuilt is set when there is no cache yet (the first search builds
	// it): nothing is wrong.
	NotBuilt bool `json:"not_built,omitempty"`
}

// Invalid is a memory file the index skipped.
type Invalid struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Change is one pending difference between the vault and the cache.
type Change struct {
	Path  string `json:"path"`
	State string `json:"state"` // added, modified, deleted
}

// Status inspects the cache: what it holds, what is stale, what is invalid.
func (ix *Index) Status(ctx context.Context) (*Status, error) {
	st := &Status{Vault: ix.v.Root, Scope: string(ix.v.Scope), Cache: ix.l.dir, Configured: ix.embedderInfo(), Invalid: []Invalid{}, Stale: []Change{}}
	st.Head, _ = ix.v.Head()
	st.Bytes = dirSize(ix.l.dir)
	s, err := ix.openSnapshot(ctx)
	if errors.Is(err, errRebuild) || errors.Is(err, errRetry) {
		st.NeedRebuild = err.Error()
		st.NotBuilt = err == errFirstBuild
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	defer s.close()
	// What a search opens, status opens too: a store that fails to open
	// is damage the next search would rebuild for.
	if _, err := s.index(); err != nil {
		st.NeedRebuild = err.Error()
		return st, nil
	}
	if _, err := s.vectors(); err != nil {
		st.NeedRebuild = err.Error()
		return st, nil
	}
	st.Generation = s.gen
	st.Embedder = s.m.Embedder
	st.Commit = s.m.Commit
	st.Docs = s.m.Docs
	for i := range s.m.files {
		e := &s.m.files[i]
		p := e.path
		switch {
		case e.flags&flagInvalid != 0:
			msg := "invalid"
			if mem := ix.load(p); mem.err != nil {
				msg = mem.err.Error()
			}
			st.Invalid = append(st.Invalid, Invalid{Path: p, Error: msg})
		case e.flags&flagNoVector != 0 || (e.row < 0 && ix.emb != nil && s.m.Embedder.Name != noneName):
			st.NoVector++
		}
	}
	sort.Slice(st.Invalid, func(i, j int) bool { return st.Invalid[i].Path < st.Invalid[j].Path })
	d, err := ix.diff(s.m)
	if err != nil {
		return nil, err
	}
	for p := range d.changed {
		state := "modified"
		if s.m.lookup(p) == nil {
			state = "added"
		}
		st.Stale = append(st.Stale, Change{Path: p, State: state})
	}
	for _, p := range d.removed {
		st.Stale = append(st.Stale, Change{Path: p, State: "deleted"})
	}
	sort.Slice(st.Stale, func(i, j int) bool { return st.Stale[i].Path < st.Stale[j].Path })
	return st, nil
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
