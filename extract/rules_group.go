package extract

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A person who says the same thing in several prompts ("give me file
// paths", later "WHEN I ASK WHERE I NEED FILE PATHS") is telling the agent
// a standing preference it keeps missing: one memory, in the clearest
// wording, that says it was repeated.

// groupRules gathers the rules that restate each other, in the order
// first said; each group comes back with its clearest statement first.
func groupRules(found []ruleCandidate) [][]ruleCandidate {
	subjects := make([]map[string]bool, len(found))
	for i, r := range found {
		subjects[i] = subject(r.sentence)
	}
	group := make([]int, len(found)) // index of the group's first rule
	for i := range found {
		group[i] = i
		for j := range i {
			if group[j] == j && restated(subjects[i], subjects[j]) {
				group[i] = j
				break
			}
		}
	}
	var out [][]ruleCandidate
	at := map[int]int{}
	for i, r := range found {
		g, ok := at[group[i]]
		if !ok {
			g = len(out)
			at[group[i]] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], r)
	}
	for _, g := range out {
		best := 0
		for i := range g {
			if clearer(g[i], g[best]) < 0 {
				best = i
			}
		}
		g[0], g[best] = g[best], g[0]
		slices.SortStableFunc(g[1:], func(a, b ruleCandidate) int { return a.turn.Time.Compare(b.turn.Time) })
	}
	return out
}

// restated reports two sentences about the same thing, as repeats counts
// them: two content words shared, most of the smaller one.
func restated(a, b map[string]bool) bool {
	return shared(a, b) >= 2 && containment(a, b) >= 0.6
}

// clearer orders the statements of one rule: the surest first, then the
// calm one (not shouted, not sworn), then the shorter.
func clearer(a, b ruleCandidate) int {
	if c := cmp.Compare(b.confidence, a.confidence); c != 0 {
		return c
	}
	if c := cmp.Compare(heated(a.sentence), heated(b.sentence)); c != 0 {
		return c
	}
	return cmp.Compare(len(a.sentence), len(b.sentence))
}

func heated(s string) int {
	if shouted(s) || reFrustrated.MatchString(s) {
		return 1
	}
	return 0
}

// groupBody is the clearest statement, and how often and how else it was
// said.
func groupBody(g []ruleCandidate) string {
	body := unshout(g[0].sentence)
	turns := groupTurns(g)
	if len(turns) < 2 {
		return body
	}
	var also []string
	first := unshout(g[0].sentence)
	for i, r := range g {
		words := r.againAs
		if i > 0 {
			words = append([]string{r.sentence}, words...)
		}
		for _, w := range words {
			// The other prompts' own words: "said in 2 prompts" alone
			// reads like one prompt counted twice.
			if w = "“" + clip(oneLine(unshout(w)), 160) + "”"; !strings.EqualFold(w, "“"+first+"”") && !slices.Contains(also, w) {
				also = append(also, w)
			}
		}
	}
	body += fmt.Sprintf("\n\nSaid in %d prompts of this session", len(turns))
	if len(also) > 0 {
		body += ", also as " + strings.Join(also, ", ")
	}
	return body + "."
}

// groupTurns are the distinct turns a group was said in, with the turns
// that said it again in words not read as a rule of their own.
func groupTurns(g []ruleCandidate) []string {
	var out []string
	for _, r := range g {
		for _, ref := range append([]string{r.turn.Ref}, r.saidAgain...) {
			if !slices.Contains(out, ref) {
				out = append(out, ref)
			}
		}
	}
	return out
}
