package extract

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// sessionSlug names a session's own file: its date and a short id.
func sessionSlug(s *transcript.Session) string {
	d := s.Start
	if d.IsZero() {
		d = time.Now()
	}
	id := schema.Slugify(s.ID)
	if len(id) > 8 {
		id = id[:8]
	}
	if id == "" || id == "memory" {
		id = "session"
	}
	return d.UTC().Format("2006-01-02") + "-" + id
}

var (
	reSmallTalk = lazyre.New(`(?i)^(?:what (?:model|version) are you|who are you|are you there|hello|hi|hey|thanks?(?: you)?|continue|go on|go ahead|proceed|yes|no|ok(?:ay)?|sure|done|lgtm|can we continue(?: from where we left off)?|where (?:were we|did we leave off))\b[\s\S]{0,30}$`)
	reResume    = lazyre.New(`(?i)\b(where (?:were we|did we leave off|we left off)|pick up where|continue from where|closed you|lost (?:the|our) (?:context|conversation)|remember(?:ed)? (?:this|the|our) conversation|conversation remembered)\b`)
)

// extractSession writes one summary per session: what was asked, what
// was done, how it ended. It is rewritten as the session goes on.
func extractSession(s *transcript.Session) []Candidate {
	asked := requests(s)
	files := filesChanged(s)
	if len(asked) == 0 && len(files) == 0 {
		return nil
	}
	sp := newSpeller(s) // the person's slips, mended where their request is quoted
	topic, ownWords := s.Title, false
	if topic == "" && len(asked) > 0 {
		ownWords = true
		main := statement(meant(s, mainRequest(s, asked)))
		if topic = firstSentences(main, 90); topic == "" {
			topic = clip(oneLine(main), 90)
		}
	}
	if ownWords {
		topic = sp.mend(topic)
	}
	if topic == "" {
		topic = "Changed " + strings.Join(files[:min(3, len(files))], ", ")
	}
	var b strings.Builder
	if intent := compactedIntent(s); intent != "" {
		fmt.Fprintf(&b, "Intent: %s\n", intent)
	}
	if work := workRequests(s, asked); len(work) > 0 {
		var parts []string
		for _, t := range work {
			a := ask(meant(s, t))
			if refs := references(s, t); len(refs) > 0 {
				// "Implement this plan" with the plan file attached.
				a = strings.TrimSuffix(a, ".") + " (" + strings.Join(refs, ", ") + ")"
			}
			if !slices.Contains(parts, a) && len(parts) < 3 {
				parts = append(parts, a)
			}
		}
		sp.prepare(append(parts, topic)...) // one pass over the agent's prose
		for i := range parts {
			parts[i] = sp.mend(parts[i])
		}
		fmt.Fprintf(&b, "Asked: %s", strings.Join(parts, " / "))
		if len(asked) > 3 {
			fmt.Fprintf(&b, " (%d requests in all)", len(asked))
		}
		b.WriteString("\n")
	}
	if done := doneLine(s, files); done != "" {
		fmt.Fprintf(&b, "\nDone: %s.\n", done)
	}
	result := outcome(s)
	if result != "" {
		fmt.Fprintf(&b, "\nResult: %s\n", result)
	}
	if end := ending(s); end != "" {
		fmt.Fprintf(&b, "\nEnded: %s\n", closeSentence(end))
	}
	if left := leftOpen(s); len(left) > 0 {
		fmt.Fprintf(&b, "\nLeft open: %s.\n", strings.Join(left, "; "))
	}
	head, _, _ := strings.Cut(result, "\n- ")
	summary := firstSentences(head, 160)
	if summary == "" && len(asked) > 0 {
		summary = "Asked: " + ask(asked[0].Text)
	}
	u := schema.URI{Scope: schema.ScopeProject, Path: "sessions/" + sessionSlug(s)}
	c := Candidate{Kind: schema.KindSession, Scope: schema.ScopeProject, URI: &u, Tags: []string{"session", s.Agent},
		Title: titleFrom(topic), Summary: clip(oneLine(summary), 200), Body: strings.TrimSpace(b.String()),
		Rule: "one summary per session", Confidence: 1, Time: s.End, Created: s.Start}
	for _, t := range asked {
		c.Turns = append(c.Turns, t.Ref)
	}
	return []Candidate{c}
}

// leftOpen is the work a session left, as far as it shows: what the
// person put off, what the agent named as left, checks still failing,
// work the session named and never did.
func leftOpen(s *transcript.Session) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t, detail string) {
		k := normalized(t)
		if k == "" || seen[k] || len(out) >= 5 {
			return
		}
		seen[k] = true
		line := clip(oneLine(strings.TrimSuffix(t, ".")), 140)
		if detail != "" {
			line += " (" + clip(oneLine(detail), 120) + ")"
		}
		out = append(out, line)
	}
	for _, c := range extractThreads(s) {
		if c.Status == schema.StatusOpen && c.Confidence >= 0.6 {
			// A failing check says how it fails: the same thread may
			// already be open from an earlier session with another error.
			detail := ""
			if slices.Contains(c.Tags, "failing") {
				_, ex, _ := strings.Cut(c.Body, "\n\n    ")
				detail, _, _ = strings.Cut(ex, " / ")
			}
			add(c.Title, detail)
		}
	}
	for _, p := range pendingWork(s) {
		add(p.line, "")
	}
	return out
}

var reCheckout = lazyre.New(`^git (?:checkout(?: -[bB])?|switch(?: -[cC])?) ([\w./-]+)$`)

// branchAtEnd is the branch the session ended on: the one it recorded,
// unless a checkout or switch in the session moved it.
func branchAtEnd(s *transcript.Session) string {
	b := s.Branch
	for _, c := range s.Calls() {
		if c.Status != transcript.OK {
			continue
		}
		for _, seg := range splitSegments(c.Command) {
			if m := reCheckout.FindStringSubmatch(strings.TrimSpace(seg)); m != nil && !strings.HasPrefix(m[1], "-") && !strings.Contains(m[1], ".") {
				b = m[1]
			}
		}
	}
	return b
}

// doneLine says what the session changed and ran, in one line.
func doneLine(s *transcript.Session, files []string) string {
	var done []string
	if len(files) > 0 {
		shown := make([]string, 0, 6)
		for _, f := range files[:min(6, len(files))] {
			shown = append(shown, shortPath(f))
		}
		more := ""
		if len(files) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(files)-len(shown))
		}
		done = append(done, fmt.Sprintf("changed %s%s", strings.Join(shown, ", "), more))
	}
	if other := filesElsewhere(s); len(other) > 0 {
		shown := other[:min(6, len(other))]
		more := ""
		if len(other) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(other)-len(shown))
		}
		done = append(done, fmt.Sprintf("changed outside the project %s%s", strings.Join(shown, ", "), more))
	}
	done = append(done, checksLine(s)...)
	if b := branchAtEnd(s); b != "" && b != "main" && b != "master" && b != "HEAD" {
		done = append(done, "on branch "+b)
	}
	commits := 0
	for _, c := range s.Calls() {
		if c.Status == transcript.OK && strings.Contains(c.Command, "git commit") {
			commits++
		}
	}
	if commits > 0 {
		done = append(done, fmt.Sprintf("committed %d time(s)", commits))
	}
	return strings.Join(done, "; ")
}

// compactedIntent is what the first compaction summary says the person
// wanted: the best statement of a long session's purpose.
func compactedIntent(s *transcript.Session) string {
	at := compactions(s)
	if len(at) == 0 {
		return ""
	}
	secs := summarySections(s.Turns[at[0]].Text)
	return clip(plain(flat(strings.Join(secs["primary request and intent"], " "))), 400)
}

var reQuestionLead = lazyre.New(`(?i)^(?:what|why|how|where|when|who|which|is|are|does|do|can|could|would|should)\b`)

var (
	reReport    = lazyre.New(`(?i)\b(done|implemented|fixed|added|updated|created|removed|changed|moved|refactored|all (?:\d+ )?tests? pass|tests? pass(?:ed|es)?|passing|builds?|succeeded|completed|works|working|resolved|summary|in place)\b`)
	reNarration = lazyre.New(`(?i)^(?:let me|i'?ll|i will|i'?m going to|now i|now let|next,? i|got it|sure|okay|ok|great|perfect|good (?:question|call|split)|you'?re right|understood|first,? i|i need to|i should|i can|here'?s)\b`)
)

// checksLine says how the session's checks ended: the last run of each
// kind (tests, build, lint), whatever its arguments.
func checksLine(s *transcript.Session) []string {
	last := map[string]*transcript.Call{}
	var order []string
	for _, c := range s.Calls() {
		if c.Status != transcript.OK && c.Status != transcript.Failed {
			continue
		}
		if kind, _, _, ok := verifyCommand(c.Command); ok {
			if last[kind] == nil {
				order = append(order, kind)
			}
			last[kind] = c
		}
	}
	var out []string
	for _, kind := range order {
		_, cmd, _, _ := verifyCommand(last[kind].Command)
		state := "passed"
		switch {
		case last[kind].Status == transcript.Failed && environmentFailure(last[kind].Output):
			state = "could not finish here (the environment, not the code: " + clip(oneLine(errorMessage(last[kind].Output)), 80) + ")"
		case timedOut(last[kind]):
			state = "was stopped by its time limit before it finished"
		case last[kind].Status == transcript.Failed && disowned(s, last[kind]):
			state = "failed (not from this session's changes, the agent said)"
		case last[kind].Status == transcript.Failed:
			state = "failed"
		}
		out = append(out, fmt.Sprintf("the last %s run (`%s`) %s", kind, cmd, state))
	}
	return out
}

var (
	reSkillLead = lazyre.New("(?i)^(?:implemented|done|built) (?:with|using|following) `[^`]+`")
	rePoint     = lazyre.New(`(?m)^\s*(?:[-*•]|\d+[.)])\s+(.+)$`)
)
