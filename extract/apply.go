package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Meta is the provenance of a capture.
type Meta struct {
	Agent      string // claude-code, codex, cli
	Session    string
	Transcript string
	CodeCommit string
	Source     string // commit trailer: claude-code:stop, extract, replay, ...
}

// Applied is what Apply did.
type Applied struct {
	Commits []string     `json:"commits"`
	Written []schema.URI `json:"written"`
	Actions []Action     `json:"actions"`
	Notes   []string     `json:"notes,omitempty"`
	ByOp    map[Op]int   `json:"by_op"`
}

// Apply writes a plan through the vaults, one commit per vault, redacting
// every text first. User-scoped candidates go to the user vault, or to the
// project vault when there is none.
func Apply(ctx context.Context, vaults map[schema.Scope]*vault.Vault, plan []Action, meta Meta, red *Redactor, now time.Time) (*Applied, error) {
	res := &Applied{ByOp: map[Op]int{}}
	by := map[schema.Scope][]Action{}
	for _, a := range plan {
		res.ByOp[a.Op]++
		if a.Op == OpSkip {
			continue
		}
		a.Candidate = redactCandidate(a.Candidate, red)
		scope := a.Candidate.Scope
		if a.Target != nil {
			scope = a.Target.Scope
		}
		if vaults[scope] == nil {
			res.Notes = append(res.Notes, fmt.Sprintf("no %s vault: %q goes to the project vault (cairn init --user creates one)", scope, a.Candidate.Title))
			scope = schema.ScopeProject
			a.Candidate.Scope = scope
			if a.Target != nil && a.Target.Scope != scope {
				a.Op, a.Target = OpCreate, nil
			}
		}
		by[scope] = append(by[scope], a)
	}
	scopes := make([]string, 0, len(by))
	for sc := range by {
		scopes = append(scopes, string(sc))
	}
	sort.Strings(scopes)
	for _, sc := range scopes {
		v := vaults[schema.Scope(sc)]
		if v == nil {
			continue
		}
		actions := by[schema.Scope(sc)]
		cm := vault.CommitMeta{Verb: verbOf(actions), Session: meta.Session, Source: meta.Source, CodeCommit: meta.CodeCommit}
		var written []schema.URI
		var refused []string
		r, err := v.Update(ctx, cm, func(tx *vault.Tx) error {
			written, refused = written[:0], refused[:0] // Update may run the batch only once, but stay safe
			for _, a := range actions {
				u, err := applyOne(tx, v, a, meta, now, red)
				if errors.Is(err, errUnchanged) {
					// Nothing new for a memory that exists: not a write.
					continue
				}
				if errors.Is(err, ErrSecret) {
					// The guard refused this memory: drop it, keep the rest.
					refused = append(refused, fmt.Sprintf("dropped %s %q: %v", a.Candidate.Kind, a.Candidate.Title, err))
					continue
				}
				if err != nil {
					return fmt.Errorf("%s %q: %w", a.Op, a.Candidate.Title, err)
				}
				written = append(written, u)
			}
			return nil
		})
		res.Notes = append(res.Notes, refused...)
		if err != nil {
			return res, err
		}
		res.Written = append(res.Written, written...)
		if r.Committed() {
			res.Commits = append(res.Commits, r.Commit)
		}
		for _, a := range actions {
			res.Actions = append(res.Actions, a)
		}
	}
	for _, a := range plan {
		if a.Op == OpSkip {
			res.Actions = append(res.Actions, a)
		}
	}
	return res, nil
}

func verbOf(actions []Action) string {
	for _, a := range actions {
		switch a.Op {
		case OpSupersede:
			return "supersede"
		case OpMerge:
			return "merge"
		}
	}
	for _, a := range actions {
		if a.Op == OpCreate {
			return "remember"
		}
	}
	return "update"
}

func redactCandidate(c Candidate, red *Redactor) Candidate {
	c.Title, c.Summary, c.Body = StripPrivate(c.Title), StripPrivate(c.Summary), StripPrivate(c.Body)
	if red == nil {
		return c
	}
	c.Title, _ = red.Redact(c.Title)
	c.Summary, _ = red.Redact(c.Summary)
	c.Body, _ = red.Redact(c.Body)
	return c
}

func (c Candidate) source(meta Meta) *schema.Source {
	ver := ""
	for _, e := range Extractors {
		if e.Name == c.Extractor {
			ver = e.Version
		}
	}
	if c.Extractor == "signals" {
		ver = signalsVersion
	}
	return &schema.Source{Agent: meta.Agent, Session: meta.Session, Transcript: meta.Transcript, Turns: lastN(c.Turns, 20), Tools: lastN(c.Tools, 20),
		Extractor: c.Extractor, Version: ver + "+" + RedactionVersion, Rule: c.Rule, CodeCommit: meta.CodeCommit}
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// when is the candidate's date: when it was said or happened in the
// session, or now when the session did not say.
func (c Candidate) when(now time.Time) time.Time {
	if !c.Time.IsZero() {
		return c.Time
	}
	return now
}

func (c Candidate) memory(meta Meta, now time.Time) *schema.Memory {
	m := schema.New(c.Kind, c.Title, c.when(now))
	if !c.Created.IsZero() {
		m.Created = schema.Timestamp(c.Created)
	}
	m.Summary, m.Body, m.Tags, m.Gate = c.Summary, c.Body, c.Tags, c.Gate
	m.Pinned, m.Triggers, m.Links = c.Pinned, c.Triggers, c.Links
	if c.Status != "" {
		m.Status = c.Status
	}
	if c.Importance > 0 {
		imp := c.Importance
		m.Importance = &imp
	}
	if c.Confidence > 0 && c.Confidence < 1 {
		conf := float64(int(c.Confidence*100+0.5)) / 100
		m.Confidence = &conf
	}
	m.Source = c.source(meta)
	return m
}

func applyOne(tx *vault.Tx, v *vault.Vault, a Action, meta Meta, now time.Time, red *Redactor) (schema.URI, error) {
	put := func(m *schema.Memory) error { return putRedacted(tx, m, red) }
	c := a.Candidate
	info, _ := c.Kind.Info()
	switch a.Op {
	case OpRewrite:
		m := rewritten(tx, v, a, meta, now)
		return m.URI, put(m)
	case OpCreate:
		m := c.memory(meta, now)
		m.URI = tx.UniqueURI(schema.URI{Scope: v.Scope, Path: info.Dir + "/" + schema.Slugify(c.Title)})
		return m.URI, put(m)
	case OpMerge:
		old, err := tx.Read(*a.Target)
		if err != nil {
			return *a.Target, err
		}
		m := old.Clone()
		if !contains(m.Body, c.Body) {
			m.Body = strings.TrimSpace(m.Body + "\n\n" + c.Body)
		}
		m.Tags = unionTags(m.Tags, c.Tags)
		if m.Body == old.Body && slices.Equal(m.Tags, old.Tags) {
			return m.URI, errUnchanged
		}
		m.Updated = schema.Timestamp(c.when(now))
		return m.URI, put(m)
	case OpSupersede:
		old, err := tx.Read(*a.Target)
		if err != nil {
			return *a.Target, err
		}
		m := c.memory(meta, now)
		m.URI = tx.UniqueURI(schema.URI{Scope: v.Scope, Path: info.Dir + "/" + schema.Slugify(c.Title)})
		m.Supersedes = []string{old.URI.String()}
		// The new memory first: if the guard refuses it, the old one stays
		// current.
		if err := put(m); err != nil {
			return m.URI, err
		}
		prev := old.Clone()
		prev.Status, prev.SupersededBy, prev.Updated = schema.StatusSuperseded, m.URI.String(), schema.Timestamp(c.when(now))
		return m.URI, put(prev)
	case OpClose:
		old, err := tx.Read(*a.Target)
		if err != nil {
			return *a.Target, err
		}
		m := old.Clone()
		m.Status, m.Updated = schema.StatusDone, schema.Timestamp(c.when(now))
		return m.URI, put(m)
	}
	return schema.URI{}, fmt.Errorf("unknown operation %q", a.Op)
}

// putRedacted writes m redacted whole: merged memories carry text that
// was not in the candidate (an old hand edit), and one stray secret must
// not fail the batch at the vault's guard.
func putRedacted(tx *vault.Tx, m *schema.Memory, red *Redactor) error {
	if red != nil {
		m.Title, _ = red.Redact(m.Title)
		m.Summary, _ = red.Redact(m.Summary)
		m.Body, _ = red.Redact(m.Body)
	}
	if same(tx, m) {
		return errUnchanged
	}
	return tx.Put(m)
}

// errUnchanged says a put would leave the memory's file as it is.
var errUnchanged = errors.New("memory unchanged")

// same reports whether m is byte for byte the memory already at its URI,
// so a rewrite that learned nothing is neither staged nor reported.
func same(tx *vault.Tx, m *schema.Memory) bool {
	if !tx.Exists(m.URI) {
		return false
	}
	old, err := tx.Read(m.URI)
	if err != nil {
		return false
	}
	was, err := old.Marshal()
	if err != nil {
		return false
	}
	next := m.Clone()
	next.CleanStrings(schema.CleanText)
	now, err := next.Marshal()
	return err == nil && bytes.Equal(was, now)
}

// rewritten is the session's own memory, or a project-wide mergeable
// file, as a rewrite leaves it: the old file with the candidate's text
// (for a mergeable file, its new lines joined to the old), or a new one.
func rewritten(tx *vault.Tx, v *vault.Vault, a Action, meta Meta, now time.Time) *schema.Memory {
	c := a.Candidate
	info, _ := c.Kind.Info()
	target := *a.Target
	if info.Policy != schema.PolicyMergeable {
		target = sessionFile(tx, v, *a.Target, meta.Session)
	}
	old, err := tx.Read(target)
	if err != nil {
		m := c.memory(meta, now)
		m.URI = target
		return m
	}
	m := old.Clone()
	if info.Policy == schema.PolicyMergeable {
		// A project-wide file (the commands that build and test): new
		// lines join the old ones.
		m.Body = mergeLines(old.Body, c.Body)
	} else {
		m.Title, m.Summary, m.Body, m.Tags = c.Title, c.Summary, c.Body, c.Tags
		m.Source = c.source(meta)
	}
	if oneLine(m.Body) != oneLine(old.Body) || m.Title != old.Title {
		m.Updated = schema.Timestamp(c.when(now))
	}
	m.URI = target
	return m
}

// mergeLines adds to old the lines of add it does not hold yet.
func mergeLines(old, add string) string {
	have := map[string]bool{}
	for _, l := range strings.Split(old, "\n") {
		have[strings.TrimSpace(l)] = true
	}
	out := strings.TrimRight(old, "\n")
	for _, l := range strings.Split(add, "\n") {
		if t := strings.TrimSpace(l); t != "" && !have[t] {
			out += "\n" + l
			have[t] = true
		}
	}
	return out
}

func unionTags(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range append(append([]string{}, a...), b...) {
		if k := strings.ToLower(t); !seen[k] && t != "" {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// datePrefix is how a session's own memories are named: DATE-ID.
var datePrefix = lazyre.New(`^\d{4}-\d{2}-\d{2}-`)

// sessionFile finds the file a session's summary or outcome already has.
// The date in the name comes from the first event seen, which a replay
// from the journal can place on another day than the transcript did; and
// two sessions can share an id prefix (DATE-ID-N then). The file whose
// provenance names this session wins; otherwise a free name.
func sessionFile(tx *vault.Tx, v *vault.Vault, target schema.URI, session string) schema.URI {
	if u, ok := findSessionFile(tx, v.Root, target, session); ok {
		return u
	}
	if old, err := tx.Read(target); err == nil && old.Source != nil && old.Source.Session != "" && old.Source.Session != session {
		return tx.UniqueURI(target)
	}
	return target
}

type memoryReader interface {
	Read(schema.URI) (*schema.Memory, error)
}

// findSessionFile looks for an existing DATE-ID[-N] file of the session.
func findSessionFile(r memoryReader, root string, target schema.URI, session string) (schema.URI, bool) {
	dir, base := path.Split(target.Path)
	if !datePrefix.MatchString(base) || session == "" {
		return target, false
	}
	same := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-` + regexp.QuoteMeta(datePrefix.ReplaceAllString(base, "")) + `(?:-\d+)?\.md$`)
	entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	for _, e := range entries {
		if !same.MatchString(e.Name()) {
			continue
		}
		u := schema.URI{Scope: target.Scope, Path: dir + strings.TrimSuffix(e.Name(), ".md")}
		if old, err := r.Read(u); err == nil && old.Source != nil && old.Source.Session == session {
			return u, true
		}
	}
	return target, false
}

// MemoryOf is the memory a candidate becomes when it is written as a new
// file, private spans removed and secrets redacted: what a person gets
// asking for a plain new file past the policy.
func MemoryOf(c Candidate, meta Meta, now time.Time, red *Redactor) *schema.Memory {
	m := redactCandidate(c, red).memory(meta, now)
	if red != nil {
		// Again on the memory as it will be written, as Apply does: one
		// redaction can leave text another rule then recognizes.
		m.Title, _ = red.Redact(m.Title)
		m.Summary, _ = red.Redact(m.Summary)
		m.Body, _ = red.Redact(m.Body)
	}
	return m
}
