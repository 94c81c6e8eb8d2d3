package extract

import (
	"fmt"
	"path"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// A dependency bump the package manager refuses is worth keeping even
// when the agent's own edit caused the failure: the resolver's message
// names a constraint of the ecosystem ("joken depends on hackney ~> 1.0"),
// not a slip in the agent's code, and the pin that resolved it is what the
// next upgrade has to know about.

var (
	// reDepConflict is a package manager saying the requirements cannot
	// all be met.
	reDepConflict = lazyre.New(`(?i)version solving failed|dependency resolution failed|\bResolutionImpossible\b|\bERESOLVE\b|could not resolve dependencies|failed to select a version for|conflicting dependencies|unable to find a satisfying version`)
	// reManifest is a file that declares a project's dependencies.
	reManifest = lazyre.New(`^(?:mix\.exs|package\.json|pyproject\.toml|requirements[\w.-]*\.txt|setup\.(?:py|cfg)|Cargo\.toml|go\.mod|Gemfile|composer\.json|pubspec\.yaml)$`)
	// reFailedBecause opens an account with the failure it explains: the
	// title is the reason.
	reFailedBecause = lazyre.New(`(?i)^[^.]{0,60}?\bfail(?:ed|s)? (?:because|since|as)\s+`)
)

// dependencyCases finds a dependency resolution that failed, the
// manifest changed, and the same command then passed.
func dependencyCases(s *transcript.Session) []Candidate {
	var out []Candidate
	for i, t := range s.Turns {
		c := t.Call
		if c == nil || t.Prior || t.Sidechain || c.Status != transcript.Failed || c.Command == "" || !reDepConflict.MatchString(c.Output) {
			continue
		}
		if cand, ok := resolved(s, i); ok {
			out = append(out, cand)
		}
	}
	return out
}

// resolved reads what followed a failed resolution up to the person's
// next words: the agent's account of it, the manifest edited, and the
// same command passing.
func resolved(s *transcript.Session, at int) (Candidate, bool) {
	fail := s.Turns[at]
	var cause, causeRef string
	var manifests []string
	for _, t := range s.Turns[at+1:] {
		if t.Prior || t.Sidechain {
			continue
		}
		switch c := t.Call; {
		case t.IsPerson():
			return Candidate{}, false
		case t.IsAgent() && cause == "" && len(manifests) == 0:
			cause, causeRef = conflictCause(t.Text), t.Ref
		case c == nil:
		case sameCommand(c, fail.Call):
			// Without the agent's account the only cause is the resolver's,
			// which quotes the requirement the fix took back.
			if c.Status != transcript.OK || len(manifests) == 0 || cause == "" {
				return Candidate{}, false
			}
			return dependencyCase(fail, t, cause, causeRef, manifests), true
		default:
			for _, f := range c.Files {
				if reManifest.MatchString(path.Base(f)) {
					manifests = append(manifests, rel(s, f))
				}
			}
		}
	}
	return Candidate{}, false
}

// conflictCause is the agent's sentence explaining a failed resolution:
// the first that says why.
func conflictCause(text string) string {
	for _, sent := range sentences(text) {
		sent = dropChatLead(sent)
		if len(sent) >= 30 && len(sent) <= 300 && !strings.HasSuffix(sent, "?") && reCausal.MatchString(sent) && !reSpeculate.MatchString(sent) {
			return sent
		}
	}
	return ""
}

// dependencyCase is the case a resolved conflict leaves: titled by the
// agent's account of it.
func dependencyCase(fail, pass transcript.Turn, cause, causeRef string, manifests []string) Candidate {
	refs := []string{fail.Ref, causeRef, pass.Ref}
	var b strings.Builder
	// The resolver's verdict, not its account: that quotes the
	// requirement the agent had just tried, which the fix took back.
	fmt.Fprintf(&b, "Symptom: `%s` failed: %s\n\nCause: %s\n\n", shortCmd(fail.Call.Command), verdictLine(fail.Call.Output), cause)
	fmt.Fprintf(&b, "Fix: changed %s; `%s` then passed.\n", strings.Join(uniqueStrings(manifests), ", "), shortCmd(pass.Call.Command))
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject,
		Title: titleFrom(reFailedBecause.ReplaceAllString(statement(cause), "")), Body: strings.TrimSpace(b.String()),
		Summary: clip(oneLine(statement(cause)), 200),
		Tags:    []string{"gotcha"}, Turns: refs, Tools: []string{fail.Call.ID, pass.Call.ID},
		Rule:       "dependency conflict: resolution failed, manifest changed, then passed",
		Confidence: 0.8, Time: pass.Time}
}

// verdictLine is the last line of out saying the resolution failed.
func verdictLine(out string) string {
	verdict := ""
	for l := range strings.SplitSeq(out, "\n") {
		if l = strings.TrimSpace(l); len(l) < 300 && reDepConflict.MatchString(l) {
			verdict = l
		}
	}
	return verdict
}
