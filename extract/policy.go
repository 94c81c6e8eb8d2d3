package extract

import (
	"context"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// Op is what happens to a candidate.
type Op string

// Operations.
const (
	OpSkip      Op = "skip"      // already known
	OpCreate    Op = "create"    // a new memory
	OpMerge     Op = "merge"     // folded into an existing memory of a mergeable kind
	OpSupersede Op = "supersede" // a new decision or constraint replaces an older one
	OpClose     Op = "close"     // an open thread or reminder is done
	OpRewrite   Op = "rewrite"   // the session's own summary or outcome, updated
)

// Action is the policy's decision for one candidate.
type Action struct {
	Op        Op          `json:"op"`
	Candidate Candidate   `json:"candidate"`
	Target    *schema.URI `json:"target,omitempty"` // the existing memory involved
	Reason    string      `json:"reason"`
}

// Existing is a memory the vault already holds, as the policy sees it.
type Existing struct {
	URI     schema.URI
	Kind    schema.Kind
	Title   string
	Body    string
	Status  schema.Status
	Updated time.Time
}

// Lookup finds memories similar to a candidate; the caller implements it
// with the search index.
type Lookup interface {
	Similar(ctx context.Context, c Candidate) ([]Existing, error)
}

// Thresholds of the policy.
const (
	nearDuplicate = 0.8  // word-pair overlap: the same thing said again
	sameSubject   = 0.55 // content-word overlap of titles: about the same thing
	sameRecord    = 0.6  // word-pair containment of an immutable record under the same title
)

// Plan decides, for each candidate, against the vault and against the
// other candidates of the batch, what to do.
func Plan(ctx context.Context, cands []Candidate, look Lookup) ([]Action, error) {
	var out []Action
	for _, c := range dedupBatch(cands) {
		if c.URI != nil {
			out = append(out, Action{Op: OpRewrite, Candidate: c, Target: c.URI, Reason: "the session's own " + string(c.Kind)})
			continue
		}
		a, err := decide(ctx, c, look)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// dedupBatch keeps the last of candidates that say the same thing.
func dedupBatch(cands []Candidate) []Candidate {
	type kept struct {
		c       Candidate
		pairs   map[string]bool
		subject map[string]bool
	}
	var out []kept
	exact := map[string]int{} // the same words said again: no need to compare
	for _, c := range cands {
		key := string(c.Kind) + "|" + string(c.Scope) + "|" + normalized(c.Text())
		if c.URI == nil {
			if i, ok := exact[key]; ok {
				out[i].c = c
				continue
			}
		}
		k := kept{c, bigrams(c.Text()), subject(c.Title)}
		dup, twin := -1, false
		for i, o := range out {
			if o.c.Kind != c.Kind || o.c.Scope != c.Scope {
				continue
			}
			if sameURI(o.c.URI, c.URI) || overlap(o.pairs, k.pairs) >= nearDuplicate || (o.c.URI == nil && overlap(o.subject, k.subject) >= 0.9) {
				dup = i
				break
			}
			if o.c.URI == nil && c.URI == nil && supersedable(c.Kind) && overlap(o.subject, k.subject) >= sameSubject {
				dup, twin = i, true
				break
			}
		}
		switch {
		case dup < 0:
		case !twin:
			out[dup] = k // the later statement wins
			continue
		default:
			// One choice seen by two extractors (the person's pick, the
			// compaction summary's record of it): one memory, the fuller.
			if len(c.Body) > len(out[dup].c.Body) {
				out[dup] = k
			}
			continue
		}
		exact[key] = len(out)
		out = append(out, k)
	}
	res := make([]Candidate, len(out))
	for i, k := range out {
		res[i] = k.c
	}
	return res
}

func supersedable(k schema.Kind) bool {
	info, ok := k.Info()
	return ok && info.Policy == schema.PolicySupersedable
}

func sameURI(a, b *schema.URI) bool { return a != nil && b != nil && *a == *b }

func decide(ctx context.Context, c Candidate, look Lookup) (Action, error) {
	if look == nil {
		return Action{Op: OpCreate, Candidate: c, Reason: "new"}, nil
	}
	similar, err := look.Similar(ctx, c)
	if err != nil {
		return Action{}, err
	}
	info, _ := c.Kind.Info()
	cb, cs := bigrams(c.Text()), subject(c.Title)
	for _, e := range similar {
		if e.Kind != c.Kind {
			continue
		}
		u := e.URI
		if overlap(cb, bigrams(e.Title+"\n"+e.Body)) >= nearDuplicate {
			if info.Policy == schema.PolicyClosable && c.Status == schema.StatusDone && e.Status.Current() {
				return Action{Op: OpClose, Candidate: c, Target: &u, Reason: "done now"}, nil
			}
			return Action{Op: OpSkip, Candidate: c, Target: &u, Reason: "already known"}, nil
		}
		// An immutable record under the same title saying much the same is
		// the same record seen from another source (the journal instead of
		// the transcript); a recurrence with a new story is kept.
		if info.Policy == schema.PolicyImmutable && strings.EqualFold(strings.TrimSpace(e.Title), strings.TrimSpace(c.Title)) &&
			containment(cb, bigrams(e.Title+"\n"+e.Body)) >= sameRecord {
			return Action{Op: OpSkip, Candidate: c, Target: &u, Reason: "already recorded"}, nil
		}
		if overlap(cs, subject(e.Title)) < sameSubject {
			continue
		}
		switch info.Policy {
		case schema.PolicyMergeable:
			if contains(e.Body, c.Body) {
				return Action{Op: OpSkip, Candidate: c, Target: &u, Reason: "already said there"}, nil
			}
			return Action{Op: OpMerge, Candidate: c, Target: &u, Reason: "same subject"}, nil
		case schema.PolicySupersedable:
			if !e.Status.Current() {
				continue
			}
			return Action{Op: OpSupersede, Candidate: c, Target: &u, Reason: "newer statement on the same subject"}, nil
		case schema.PolicyClosable:
			if c.Status == schema.StatusDone && e.Status.Current() {
				return Action{Op: OpClose, Candidate: c, Target: &u, Reason: "done now"}, nil
			}
			if e.Status.Current() {
				return Action{Op: OpSkip, Candidate: c, Target: &u, Reason: "already open"}, nil
			}
		}
	}
	if c.Status == schema.StatusDone && info.Policy == schema.PolicyClosable {
		return Action{Op: OpSkip, Candidate: c, Reason: "done, and never recorded as open"}, nil
	}
	return Action{Op: OpCreate, Candidate: c, Reason: "new"}, nil
}

func contains(hay, needle string) bool {
	return strings.Contains(strings.ToLower(oneLine(hay)), strings.ToLower(oneLine(needle)))
}
