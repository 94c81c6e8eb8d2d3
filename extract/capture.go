package extract

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
	"github.com/cairnmem/cairn/vault"
)

// minConfidence is the least confidence a candidate needs to be written:
// capture prefers silence to a memory nobody would keep.
const minConfidence = 0.7

// Extractor turns a session into candidates. Each is named and versioned;
// the pair goes into every memory it produces, so a later version can be
// replayed over old sessions.
type Extractor struct {
	Name    string
	Version string
	Run     func(s *transcript.Session) []Candidate
}

// Extractors are the deterministic extractors, in the order they run.
var Extractors = []Extractor{
	{"decisions", "5", extractDecisions},
	{"requested", "2", extractRequested},
	{"rules", "5", extractRules},
	{"threads", "4", extractThreads},
	{"gotchas", "5", extractGotchas},
	{"commands", "2", extractCommands},
	{"where", "1", extractWhere},
	{"compactions", "4", extractCompactions},
	{"settings", "1", extractSettings},
	{"untracked", "1", extractUntracked},
	{"session", "6", extractSession},
}

// Options configures a capture.
type Options struct {
	Vaults   map[schema.Scope]*vault.Vault
	Lookup   Lookup
	Redactor *Redactor
	Enricher Enricher // optional
	Meta     Meta
	Now      time.Time
	DryRun   bool
	Log      io.Writer // enrichment failures, dropped candidates; may be nil
	// MinConfidence overrides the threshold under which candidates are
	// dropped (0: the default).
	MinConfidence float64
	// Instructions are the texts of the instruction files the agent reads
	// every session (CLAUDE.md, AGENTS.md): a memory repeating them is noise.
	Instructions []string
	// OpenVault opens (or creates) a vault the plan writes to that Vaults
	// lacks: the user vault is made on first need, so a preference is
	// never lost to the project. Nil sends such writes to the project.
	OpenVault func(schema.Scope) (*vault.Vault, error)
}

// Dropped is a candidate capture did not write, and why.
type Dropped struct {
	Candidate Candidate `json:"candidate"`
	Reason    string    `json:"reason"`
}

// Result is what a capture found and did.
type Result struct {
	Candidates []Candidate `json:"candidates"`
	Dropped    []Dropped   `json:"dropped,omitempty"`
	Plan       []Action    `json:"plan"`
	Applied    *Applied    `json:"applied,omitempty"`
}

// Run applies every extractor to a session; a subagent's own file holds
// nothing for memory (its parent session does).
func Run(s *transcript.Session) []Candidate {
	if s.Subagent {
		return nil
	}
	var out []Candidate
	for _, ex := range Extractors {
		cands := ex.Run(s)
		if len(cands) > maxPerExtractor {
			// A session that yields more than this from one extractor is
			// mostly repeating itself: keep the surest, latest ones.
			slices.SortStableFunc(cands, func(a, b Candidate) int {
				if a.Confidence != b.Confidence {
					return cmp.Compare(b.Confidence, a.Confidence)
				}
				return b.Time.Compare(a.Time)
			})
			cands = cands[:maxPerExtractor]
		}
		for _, c := range cands {
			if c.Extractor == "" {
				c.Extractor = ex.Name
			}
			out = append(out, c)
		}
	}
	return out
}

// maxPerExtractor bounds what one extractor proposes for one session.
const maxPerExtractor = 40

// CaptureSession extracts what a session taught, keeps what is sure
// enough and not already in the agent's instruction files, redacts it,
// optionally enriches it, plans it against the vault and applies it.
func CaptureSession(ctx context.Context, s *transcript.Session, o Options) (*Result, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	threshold := o.MinConfidence
	if threshold <= 0 {
		threshold = minConfidence
	}
	known := instructionSet(append(append([]string{}, s.Instructed...), o.Instructions...))
	s = withoutPrivate(s)
	res := &Result{}
	for _, c := range Run(s) {
		switch {
		case c.Confidence < threshold:
			res.Dropped = append(res.Dropped, Dropped{c, fmt.Sprintf("confidence %.2f under %.2f (%s)", c.Confidence, threshold, c.Rule)})
		case repeatsInstructions(c, known):
			res.Dropped = append(res.Dropped, Dropped{c, "the agent's instruction files already say it"})
		default:
			// Redact first: an enrichment model never sees a secret either.
			res.Candidates = append(res.Candidates, redactCandidate(c, o.Redactor))
		}
	}
	if o.Enricher != nil && len(res.Candidates) > 0 {
		enriched, err := o.Enricher.Enrich(ctx, res.Candidates)
		if err != nil {
			logf(o.Log, "enrichment failed, keeping the deterministic result: %v", err)
		} else {
			res.Candidates = enriched
		}
	}
	return res, res.plan(ctx, o)
}

// CaptureCandidates plans and applies given candidates (signal phrases,
// remember, imports).
func CaptureCandidates(ctx context.Context, cands []Candidate, o Options) (*Result, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	// Redact before planning too: the vault holds redacted text, and a
	// candidate is compared with it as it will be written.
	res := &Result{}
	for _, c := range cands {
		res.Candidates = append(res.Candidates, redactCandidate(c, o.Redactor))
	}
	return res, res.plan(ctx, o)
}

func (res *Result) plan(ctx context.Context, o Options) error {
	plan, err := Plan(ctx, res.Candidates, o.Lookup)
	if err != nil {
		return err
	}
	res.Plan = plan
	if o.DryRun {
		// Show where a rewrite would land; Apply decides it again under
		// the lock.
		for i, a := range plan {
			if a.Op != OpRewrite || a.Target == nil || o.Vaults[a.Target.Scope] == nil {
				continue
			}
			v := o.Vaults[a.Target.Scope]
			if u, ok := findSessionFile(v, v.Root, *a.Target, o.Meta.Session); ok {
				plan[i].Target = &u
			}
		}
		return nil
	}
	res.Applied, err = Apply(ctx, o.vaultsFor(plan), plan, o.Meta, o.Redactor, o.Now)
	if res.Applied != nil {
		for _, n := range res.Applied.Notes {
			logf(o.Log, "%s", n)
		}
	}
	return err
}

// vaultsFor is Vaults with the vaults the plan writes to and Vaults
// lacks, from OpenVault.
func (o Options) vaultsFor(plan []Action) map[schema.Scope]*vault.Vault {
	if o.OpenVault == nil {
		return o.Vaults
	}
	out := maps.Clone(o.Vaults)
	if out == nil {
		out = map[schema.Scope]*vault.Vault{}
	}
	for _, a := range plan {
		sc := a.Candidate.Scope
		if a.Op == OpSkip || out[sc] != nil {
			continue
		}
		if v, err := o.OpenVault(sc); err == nil {
			out[sc] = v
		} else {
			logf(o.Log, "no %s vault: %v", sc, err)
		}
	}
	return out
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// instructionSet holds the sentences of instruction files, normalized.
func instructionSet(texts []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			for _, s := range splitSentences(plain(strings.TrimLeft(strings.TrimSpace(l), "#-*•+0123456789.) "))) {
				if k := normalized(s); len(k) >= 16 {
					out[k] = true
				}
			}
		}
	}
	return out
}

func normalized(s string) string { return strings.Join(words(s), " ") }

// repeatsInstructions reports a rule, preference or decision that an
// instruction file already states, or nearly.
func repeatsInstructions(c Candidate, known map[string]bool) bool {
	if len(known) == 0 || (c.Kind != schema.KindConstraint && c.Kind != schema.KindPreference && c.Kind != schema.KindDecision && c.Kind != schema.KindPattern) {
		return false
	}
	body := normalized(c.Body)
	for k := range known {
		if strings.Contains(body, k) || strings.Contains(k, body) {
			return true
		}
	}
	subj := subject(c.Body)
	if len(subj) < 3 {
		return false
	}
	for k := range known {
		if overlap(subj, subject(k)) >= 0.7 {
			return true
		}
	}
	return false
}

// InstructionFiles reads the instruction files an agent loads in a
// project: CLAUDE.md and AGENTS.md there and in the user's agent homes.
// Missing files are skipped; each is read up to 64 KB.
func InstructionFiles(projectDir string) []string {
	var paths []string
	if projectDir != "" {
		for _, n := range []string{"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", filepath.Join(".claude", "CLAUDE.md")} {
			paths = append(paths, filepath.Join(projectDir, n))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		paths = append(paths, filepath.Join(home, ".claude", "CLAUDE.md"), filepath.Join(home, ".codex", "AGENTS.md"))
	}
	var out []string
	for _, p := range paths {
		if data, err := readBounded(p, 64<<10); err == nil && len(data) > 0 {
			out = append(out, string(data))
		}
	}
	return out
}

func readBounded(path string, n int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
