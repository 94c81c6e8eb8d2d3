package vault

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// MergeResult is a three-way merge of one memory file. It never holds
// conflict markers: when two versions cannot become one, the second is
// kept as a memory of its own (Extra) at a free path.
type MergeResult struct {
	Data      []byte // what goes at the merged path
	Extra     []byte // a second memory to write at ExtraPath; nil if none
	ExtraPath string
	Note      string // what was decided, for reports
}

// MergeMemory merges ours and theirs, which both changed base (nil when
// both sides added the file). rel is the file's vault-relative path; free
// returns an unused path for a second file.
//
// The rules, by the kind's policy:
//   - mergeable (profile, preference, pattern): both sides' content is kept,
//     paragraph by paragraph; a paragraph one side deleted stays deleted.
//   - closable (thread, reminder): as mergeable, and done wins over open.
//   - supersedable (decision, constraint): the version updated later stays
//     current at the path; the other is kept at a new path, marked
//     superseded by it, and linked from it.
//   - immutable (event, case, outcome, session): ours stays; theirs is kept
//     at a new path.
//
// Field conflicts: the later `updated` wins for single values, tags, links
// and triggers are united (minus what one side removed), importance takes
// the maximum, created the earliest, updated the latest.
func MergeMemory(scope schema.Scope, rel string, base, ours, theirs []byte, free func(rel string) string) (MergeResult, error) {
	switch {
	case bytes.Equal(ours, theirs):
		return MergeResult{Data: ours, Note: "same on both sides"}, nil
	case base != nil && bytes.Equal(base, ours):
		return MergeResult{Data: theirs, Note: "theirs"}, nil
	case base != nil && bytes.Equal(base, theirs):
		return MergeResult{Data: ours, Note: "ours"}, nil
	}
	u, uerr := schema.URIFromRelPath(rel, scope)
	o, oerr := schema.Parse(rel, ours)
	t, terr := schema.Parse(rel, theirs)
	if oerr != nil || terr != nil || uerr != nil {
		// A side that is not a valid memory cannot be merged field by
		// field; keep both files so nothing is lost and doctor reports it.
		extra := free(rel)
		return MergeResult{Data: ours, Extra: theirs, ExtraPath: extra, Note: "unparseable; kept both, theirs at " + extra}, nil
	}
	var b *schema.Memory
	if base != nil {
		b, _ = schema.Parse(rel, base)
	}
	if b == nil {
		b = &schema.Memory{}
	}
	info, _ := o.Kind.Info()
	switch info.Policy {
	case schema.PolicyImmutable:
		extra := free(rel)
		return MergeResult{Data: ours, Extra: theirs, ExtraPath: extra, Note: "immutable kind: kept both, theirs at " + extra}, nil
	case schema.PolicySupersedable:
		if strings.TrimSpace(o.Body) != strings.TrimSpace(t.Body) || o.Title != t.Title {
			return supersedeMerge(rel, u, o, t, free)
		}
	}
	m := mergeFields(b, o, t, info.Policy == schema.PolicyClosable)
	m.Body = mergeBody(b.Body, o.Body, t.Body)
	data, err := m.Marshal()
	if err != nil {
		return MergeResult{}, fmt.Errorf("%s: %w", rel, err)
	}
	return MergeResult{Data: data, Note: "merged both sides"}, nil
}

// supersedeMerge keeps the later version current and the other as a
// superseded memory beside it.
func supersedeMerge(rel string, u schema.URI, o, t *schema.Memory, free func(string) string) (MergeResult, error) {
	cur, old := o, t
	if t.Updated.After(o.Updated) {
		cur, old = t, o
	}
	extra := free(rel)
	eu, err := schema.URIFromRelPath(extra, u.Scope)
	if err != nil {
		return MergeResult{}, err
	}
	cur, old = cur.Clone(), old.Clone()
	old.Status, old.SupersededBy = schema.StatusSuperseded, u.String()
	cur.Supersedes = union(cur.Supersedes, []string{eu.String()})
	cd, err := cur.Marshal()
	if err != nil {
		return MergeResult{}, err
	}
	od, err := old.Marshal()
	if err != nil {
		return MergeResult{}, err
	}
	return MergeResult{Data: cd, Extra: od, ExtraPath: extra, Note: "diverging " + string(o.Kind) + ": the later is current, the other superseded at " + extra}, nil
}

func mergeFields(b, o, t *schema.Memory, closable bool) *schema.Memory {
	m := o.Clone()
	theirsNewer := t.Updated.After(o.Updated)
	pick := func(bv, ov, tv string) string {
		switch {
		case ov == tv, tv == bv:
			return ov
		case ov == bv:
			return tv
		case theirsNewer:
			return tv
		}
		return ov
	}
	m.Title = pick(b.Title, o.Title, t.Title)
	m.Summary = pick(b.Summary, o.Summary, t.Summary)
	m.Gate = pick(b.Gate, o.Gate, t.Gate)
	m.SupersededBy = pick(b.SupersededBy, o.SupersededBy, t.SupersededBy)
	m.Kind = schema.Kind(pick(string(b.Kind), string(o.Kind), string(t.Kind)))
	m.Status = schema.Status(pick(string(b.Status), string(o.Status), string(t.Status)))
	if closable && (o.Status == schema.StatusDone || t.Status == schema.StatusDone) {
		m.Status = schema.StatusDone // closing is final
	}
	if o.Pinned != t.Pinned {
		m.Pinned = t.Pinned
		if o.Pinned != b.Pinned && (t.Pinned == b.Pinned || !theirsNewer) {
			m.Pinned = o.Pinned
		}
	}
	m.Tags = merge3(b.Tags, o.Tags, t.Tags)
	m.Links = merge3(b.Links, o.Links, t.Links)
	m.Triggers = merge3(b.Triggers, o.Triggers, t.Triggers)
	m.Supersedes = merge3(b.Supersedes, o.Supersedes, t.Supersedes)
	if t.Importance != nil && (o.Importance == nil || *t.Importance > *o.Importance) {
		v := *t.Importance
		m.Importance = &v
	}
	if t.Confidence != nil && (o.Confidence == nil || theirsNewer) {
		v := *t.Confidence
		m.Confidence = &v
	}
	if !t.Created.IsZero() && (m.Created.IsZero() || t.Created.Before(m.Created)) {
		m.Created = t.Created
	}
	if t.Updated.After(m.Updated) {
		m.Updated = t.Updated
	}
	if theirsNewer && t.Source != nil {
		m.Source = t.Source
	}
	return m
}

// merge3 unites two lists, leaving out what one side removed from base.
func merge3(b, o, t []string) []string {
	inB, inO, inT := set(b), set(o), set(t)
	var out []string
	for _, x := range append(append([]string{}, o...), t...) {
		if inB[x] && (!inO[x] || !inT[x]) {
			continue // removed on one side
		}
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func union(a, b []string) []string {
	out := append([]string{}, a...)
	for _, x := range b {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func set(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// mergeBody merges paragraph by paragraph: ours in order without what
// theirs deleted, then what theirs added.
func mergeBody(base, ours, theirs string) string {
	switch {
	case ours == theirs, theirs == base:
		return ours
	case ours == base:
		return theirs
	}
	bp, op, tp := paragraphs(base), paragraphs(ours), paragraphs(theirs)
	inB, inO, inT := set(bp), set(op), set(tp)
	var out []string
	for _, p := range op {
		if inB[p] && !inT[p] {
			continue
		}
		out = append(out, p)
	}
	for _, p := range tp {
		if !inB[p] && !inO[p] {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = strings.Trim(p, "\n"); strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// freePath returns the first rel-N.md that taken reports free.
func freePath(rel string, taken func(string) bool) string {
	dir, file := path.Split(rel)
	stem := strings.TrimSuffix(file, ".md")
	for i := 2; ; i++ {
		p := fmt.Sprintf("%s%s-%d.md", dir, stem, i)
		if !taken(p) {
			return p
		}
	}
}
