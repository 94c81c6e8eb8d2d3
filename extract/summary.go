package extract

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// sessionSlug names a session's own files: its date and a short id.
func sessionSlug(s *Session) string {
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

// extractOutcome records what the session changed: files, commands and
// exit codes, tests. One per session, rewritten as the session goes on;
// none for a session that changed and ran nothing.
func extractOutcome(s *Session) []Candidate {
	files := s.FilesTouched()
	type ran struct {
		cmd  string
		exit int
	}
	var cmds []ran
	var tests, failed int
	var lastTest string
	lastOK := false
	var tools []string
	for _, c := range s.Calls {
		cmd := c.Command()
		if cmd == "" || c.Result == nil {
			continue
		}
		cmds = append(cmds, ran{shortCmd(cmd), c.Exit()})
		tools = append(tools, c.Use.ToolID)
		if IsTest(cmd) {
			tests++
			lastTest, lastOK = shortCmd(cmd), !c.Failed()
			if c.Failed() {
				failed++
			}
		}
	}
	if len(files) == 0 && len(cmds) == 0 {
		return nil
	}
	var b strings.Builder
	if len(files) > 0 {
		b.WriteString("Files changed:\n")
		for _, f := range files {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	if len(cmds) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("Commands:\n")
		shown := cmds
		if len(shown) > 20 {
			shown = shown[len(shown)-20:]
			fmt.Fprintf(&b, "- … %d earlier commands\n", len(cmds)-20)
		}
		for _, c := range shown {
			fmt.Fprintf(&b, "- `%s` → exit %d\n", c.cmd, c.exit)
		}
	}
	if tests > 0 {
		state := "passed"
		if !lastOK {
			state = "failed"
		}
		fmt.Fprintf(&b, "\nTests: %d run(s), %d failed; the last (`%s`) %s.\n", tests, failed, lastTest, state)
	}
	title := fmt.Sprintf("Changed %d file(s)", len(files))
	switch {
	case len(files) == 0:
		title = fmt.Sprintf("Ran %d command(s)", len(cmds))
	case len(files) <= 3:
		title = "Changed " + strings.Join(files, ", ")
	}
	// The summary is the outcome in one line, for packs and listings.
	var parts []string
	if len(files) > 0 {
		parts = append(parts, fmt.Sprintf("%d file(s) changed", len(files)))
	}
	if len(cmds) > 0 {
		parts = append(parts, fmt.Sprintf("%d command(s) run", len(cmds)))
	}
	if tests > 0 {
		state := "passing"
		if !lastOK {
			state = "failing"
		}
		parts = append(parts, fmt.Sprintf("tests %s at the end", state))
	}
	summary := strings.Join(parts, ", ") + "."
	u := schema.URI{Scope: schema.ScopeProject, Path: "outcomes/" + sessionSlug(s)}
	return []Candidate{{Kind: schema.KindOutcome, Scope: schema.ScopeProject, Title: titleFrom(title), Summary: summary, Body: strings.TrimSpace(b.String()),
		Tags: []string{"outcome"}, Extractor: "outcomes", Tools: tools, URI: &u}}
}

// extractSession writes one summary per session: what was asked, what was
// done, what is left. It is rewritten as the session goes on.
func extractSession(s *Session) []Candidate {
	prompts := s.Prompts()
	if len(prompts) == 0 {
		return nil
	}
	var asked []string
	for _, p := range prompts {
		if len(asked) == 3 {
			break
		}
		asked = append(asked, clip(oneLine(p.Text), 200))
	}
	var done []string
	if files := s.FilesTouched(); len(files) > 0 {
		shown := files
		if len(shown) > 8 {
			shown = append(shown[:8:8], fmt.Sprintf("+%d more", len(files)-8))
		}
		done = append(done, fmt.Sprintf("changed %s", strings.Join(shown, ", ")))
	}
	for _, d := range extractDecisions(s) {
		done = append(done, "decided: "+d.Title)
	}
	testsRan, testsOK := 0, false
	for _, c := range s.Calls {
		if cmd := c.Command(); cmd != "" && IsTest(cmd) && c.Result != nil {
			testsRan++
			testsOK = !c.Failed()
		}
	}
	if testsRan > 0 {
		state := "passing"
		if !testsOK {
			state = "failing"
		}
		done = append(done, fmt.Sprintf("ran tests %d time(s), %s at the end", testsRan, state))
	}
	var left []string
	for _, t := range extractThreads(s) {
		if t.Status != schema.StatusDone {
			left = append(left, t.Title)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Asked: %s\n", strings.Join(asked, " / "))
	if len(done) > 0 {
		fmt.Fprintf(&b, "\nDone: %s.\n", strings.Join(done, "; "))
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "\nLeft: %s.\n", strings.Join(left, "; "))
	}
	summary := ""
	for _, e := range s.Events {
		if e.Kind == EventSummary {
			summary = clip(oneLine(e.Text), 200)
		}
	}
	if summary == "" {
		summary = clip("Asked: "+asked[0], 200)
	}
	date := s.Start
	if date.IsZero() {
		date = time.Now()
	}
	u := schema.URI{Scope: schema.ScopeProject, Path: "sessions/" + sessionSlug(s)}
	c := Candidate{Kind: schema.KindSession, Scope: schema.ScopeProject, URI: &u, Extractor: "session", Tags: []string{"session", s.Agent},
		Title:   titleFrom(fmt.Sprintf("Session %s: %s", date.UTC().Format("2006-01-02"), clip(oneLine(prompts[0].Text), 60))),
		Summary: summary, Body: strings.TrimSpace(b.String())}
	for _, p := range prompts {
		if r := p.Ref(); r != "" {
			c.Turns = append(c.Turns, r)
		}
	}
	return []Candidate{c}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}
