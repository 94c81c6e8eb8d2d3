package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
	"github.com/cairnmem/cairn/vault"
)

// Capture runs capture of one session into the vaults, the way a hook
// does, and says which memories it wrote and which it found already
// known (a candidate the vault already held).
type Capture func(ctx context.Context, s *transcript.Session, vaults map[schema.Scope]*vault.Vault) (written, known []schema.URI, err error)

// Options configures a run.
type Options struct {
	Labels   map[string]*Label // by session file name; nil scores checks only
	Capture  Capture
	Dir      string // where the vaults go; default a temp dir
	Progress func(done, total int, name string)
}

// session is one transcript with where it belongs.
type session struct {
	path  string
	s     *transcript.Session
	group string // one project vault per group
	owner string // one user vault per owner
	err   error
}

// Run captures every session and scores what was written.
func Run(ctx context.Context, files []string, o Options) (*Report, error) {
	dir := o.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "cairn-bench-capture-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	sessions := make([]*session, 0, len(files))
	for _, f := range files {
		s, err := transcript.Read(f)
		owner := filepath.Base(filepath.Dir(f))
		cwd := ""
		if s != nil {
			cwd = s.Cwd
		}
		sessions = append(sessions, &session{path: f, s: s, err: err, owner: owner, group: owner + "|" + cwd})
	}
	// Sessions of one project run oldest first, as they happened.
	sort.SliceStable(sessions, func(i, j int) bool {
		a, b := sessions[i], sessions[j]
		if a.group != b.group {
			return a.group < b.group
		}
		return start(a).Before(start(b))
	})
	rep := &Report{}
	vaults := map[string]map[schema.Scope]*vault.Vault{}
	users := map[string]*vault.Vault{}
	for i, ss := range sessions {
		if o.Progress != nil {
			o.Progress(i, len(sessions), filepath.Base(ss.path))
		}
		sr := SessionReport{File: filepath.Base(ss.path)}
		if l := o.Labels[sr.File]; l != nil {
			sr.Split, sr.Agent = l.Split, l.Agent
		}
		if ss.err != nil || ss.s == nil {
			sr.Error = fmt.Sprint(ss.err)
			sr.Failures = append(sr.Failures, Failure{Class: ClassNoResult, Text: sr.Error})
			rep.Sessions = append(rep.Sessions, sr)
			continue
		}
		if sr.Agent == "" {
			sr.Agent = ss.s.Agent
		}
		vs, err := vaultsFor(ctx, dir, ss, vaults, users)
		if err != nil {
			return nil, err
		}
		sr.Vault = vs[schema.ScopeProject].Root
		info, _ := os.Stat(ss.path)
		if info != nil {
			sr.Bytes = info.Size()
		}
		began := time.Now()
		written, known, err := o.Capture(ctx, ss.s, vs)
		sr.Millis = float64(time.Since(began).Microseconds()) / 1000
		if err != nil {
			sr.Error = err.Error()
			sr.Failures = append(sr.Failures, Failure{Class: ClassNoResult, Text: sr.Error})
		}
		score(&sr, ss.s, o.Labels[sr.File], read(vs, written), read(vs, known))
		rep.Sessions = append(rep.Sessions, sr)
	}
	if o.Progress != nil {
		o.Progress(len(sessions), len(sessions), "")
	}
	rep.totalWith(o.Labels)
	return rep, nil
}

func start(s *session) time.Time {
	if s.s == nil {
		return time.Time{}
	}
	return s.s.Start
}

func vaultsFor(ctx context.Context, dir string, ss *session, vaults map[string]map[schema.Scope]*vault.Vault, users map[string]*vault.Vault) (map[schema.Scope]*vault.Vault, error) {
	if vs := vaults[ss.group]; vs != nil {
		return vs, nil
	}
	project := filepath.Join(dir, fmt.Sprintf("project-%d", len(vaults)+1))
	if err := os.MkdirAll(project, 0o755); err != nil {
		return nil, err
	}
	res, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: project})
	if err != nil {
		return nil, err
	}
	p, err := vault.Open(res.Root, schema.ScopeProject)
	if err != nil {
		return nil, err
	}
	u := users[ss.owner]
	if u == nil {
		root := filepath.Join(dir, "user-"+schema.Slugify(ss.owner))
		if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeUser, Dir: root}); err != nil {
			return nil, err
		}
		if u, err = vault.Open(root, schema.ScopeUser); err != nil {
			return nil, err
		}
		users[ss.owner] = u
	}
	vs := map[schema.Scope]*vault.Vault{schema.ScopeProject: p, schema.ScopeUser: u}
	vaults[ss.group] = vs
	return vs, nil
}

// read loads the memories at uris as they are now.
func read(vs map[schema.Scope]*vault.Vault, uris []schema.URI) []*schema.Memory {
	var out []*schema.Memory
	seen := map[schema.URI]bool{}
	for _, u := range uris {
		if seen[u] || vs[u.Scope] == nil {
			continue
		}
		seen[u] = true
		if m, err := vs[u.Scope].Read(u); err == nil {
			out = append(out, m)
		}
	}
	return out
}
