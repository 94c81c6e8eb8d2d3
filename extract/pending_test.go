package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

func said(text string) transcript.Turn {
	return transcript.Turn{Speaker: transcript.Person, Text: text}
}
func replied(text string) transcript.Turn {
	return transcript.Turn{Speaker: transcript.Agent, Text: text}
}
func edited(file, content string) transcript.Turn {
	return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Edit", Files: []string{file}, Status: transcript.OK,
		Input: map[string]any{"file_path": file, "old_string": "x", "new_string": content}}}
}

const outstanding = "A few things still outstanding:\n\n" +
	"1. **`api/handler.go`** — `toResponse` still doesn't fill `ValidUntil`\n" +
	"2. **Worker tests** — nothing written yet for `sweepRunner`\n" +
	"3. **`store.go`** — the nil `createdAt` case is skipped silently"

const findings = "Here's what I found:\n\n" +
	"**1. Lost update on retry** — `queue.go:88`\nThe retry path acks before the write.\n\n" +
	"**2. Field name mismatch** — `events.proto:12`\nThe proto says `expired_on`.\n\n" +
	"**3. `log.Fatal` skips deferred cleanup** — `serve.go:40`\nDeferred closes never run.\n\n" +
	"**4. Duplicate clock call** — `store.go:91`\nTwo `now()` calls.\n"

// Work the session named and never did: a list of what is still
// outstanding, findings the person agreed to fix by number. What a later
// edit or the agent's later words took up is not left open.
func TestPendingWork(t *testing.T) {
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  []string // substrings of the lines, in order
	}{
		{"outstanding list, nothing done after", []transcript.Turn{
			said("anything else we need to cover?"), replied(outstanding),
		}, []string{"`toResponse` still doesn't fill `ValidUntil`", "nothing written yet for `sweepRunner`", "`store.go` — the nil `createdAt` case"}},
		{"an edit of the named file did it", []transcript.Turn{
			said("anything else we need to cover?"), replied(outstanding),
			said("do the handler"), edited("/repo/api/handler.go", "ValidUntil: c.ValidUntil"),
			edited("/repo/worker/sweep_test.go", "func TestSweepRunner(t *testing.T) { sweepRunner() }"),
			edited("/repo/cmd/store.go", "log.Warn(\"no createdAt\")"),
		}, nil},
		{"the agent settled it later", []transcript.Turn{
			said("anything else we need to cover?"), replied(outstanding),
			said("what about the handler?"), replied("`toResponse` is fine: `ValidUntil` is set by the caller, no change needed."),
		}, []string{"`sweepRunner`", "`store.go`"}},
		{"a restatement is not a settling", []transcript.Turn{
			replied("Now `toResponse` in `handler.go` needs to fill `ValidUntil`."),
			said("anything else we need to cover?"), replied(outstanding),
			replied("Reminder: `toResponse` still doesn't fill `ValidUntil`."),
		}, []string{"`toResponse`", "`sweepRunner`", "`store.go`"}},
		{"a change the agent said a file needs, never made", []transcript.Turn{
			said("add the expiry"), replied("Now the mock needs regenerating, and `toResponse` in `handler.go` needs to populate `ValidUntil`."),
			edited("/repo/models.go", "ValidUntil *time.Time"), edited("/repo/mocks/store.go", "func (m *MockStore) Expire()"),
		}, []string{"`toResponse` in `handler.go` needs to populate `ValidUntil`"}},
		{"made later", []transcript.Turn{
			said("add the expiry"), replied("Now `toResponse` in `handler.go` needs to populate `ValidUntil`."), edited("/repo/api/handler.go", "ValidUntil: c.ValidUntil"),
		}, nil},
		{"work for the person is not the agent's to leave", []transcript.Turn{
			said("add the expiry"), replied("You need to run buf-gen so `handler.pb.go` gets the field; then `handler.go` needs to use it if the build passes."),
		}, nil},
		{"a plain list is not work left", []transcript.Turn{
			said("how does the handler work?"), replied("It does three things:\n\n1. `toResponse` maps the contract\n2. `sweepRunner` expires old ones\n3. `store.go` persists them"),
		}, nil},
		{"findings agreed by number", []transcript.Turn{
			said("review the changes"), replied(findings),
			said("1 yeah we should fix, 2 is naming, leave it 3 yeah ok we should fix that 4 i have fixed"),
			edited("/repo/internal/queue.go", "if err := write(); err != nil { return err }"),
		}, []string{"Agreed to fix, not done: `log.Fatal` skips deferred cleanup — `serve.go:40`"}},
		{"a reply not by number agrees to nothing", []transcript.Turn{
			said("review the changes"), replied(findings), said("yeah fix the first one, the others can wait until v2.1"),
		}, nil},
		{"the list must be the agent's last words", []transcript.Turn{
			said("review the changes"), replied(findings), replied("Want me to start with the first?"), said("1 yes 3 yes"),
		}, nil},
	} {
		s := &transcript.Session{Turns: tc.turns}
		var got []string
		for _, p := range pendingWork(s) {
			got = append(got, p.line)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %q, want %d lines %q", tc.name, got, len(tc.want), tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: line %d = %q, want it to hold %q", tc.name, i, got[i], w)
			}
		}
	}
}

// The session summary says what was left open.
func TestLeftOpenNamesPendingWork(t *testing.T) {
	s := &transcript.Session{ID: "s1", Agent: "claude-code", Turns: []transcript.Turn{
		said("Add expiry to the handset contracts and publish an event when one expires"),
		edited("/repo/models.go", "ValidUntil *time.Time"),
		said("anything else we need to cover?"), replied(outstanding),
	}}
	cs := extractSession(s)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "Left open: ") || !strings.Contains(cs[0].Body, "`toResponse` still doesn't fill `ValidUntil`") {
		t.Fatalf("summary does not name the work left:\n%v", cs)
	}
}

const techPlan = "## Design\n\n**Files to create:**\n\n| File | Description |\n|------|-------------|\n" +
	"| `src/page-promo-forbes.php` | Copy of `page-promo.php` with the banner |\n" +
	"| `src/static/scss/pages/promo-forbes.scss` | Copy of `promo.scss`, root selector renamed |\n\n" +
	"**File to modify:**\n\n| File | Change |\n|------|--------|\n| `src/functions.php` | Add the slug to `PAGE_TEMPLATES` |\n\n" +
	"**Template changes** (vs source `page-promo.php`):\n\n1. Rename the template\n"

const fixPlan = "# Plan: Fix the anchor jump\n\n## Change\n\nUse `scrollIntoView` in `bindClicks()`.\n\n## Verification\n\n" +
	"1. Open any affected page locally at http://localhost:8081\n2. Click \"Start\"\n" +
	"3. Confirm the page scrolls to the pricing section, not the list\n4. Test on a mobile viewport\n"

// A plan the person approved that nothing carried out, and an approved
// plan carried out whose checks by hand nobody reported on.
func TestPlannedNotDone(t *testing.T) {
	plan := transcript.Turn{Speaker: transcript.Agent, Source: "plan", Text: fixPlan, Approved: true}
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"planned, approved, nothing written", []transcript.Turn{
			said("tech plan 19709"), replied(techPlan), said("yes it looks good"), replied("Posted the plan to the work item."),
		}, "Planned, not built yet: create page-promo-forbes.php, promo-forbes.scss; modify functions.php"},
		{"planned and carried out", []transcript.Turn{
			said("tech plan 19709"), replied(techPlan), said("yes it looks good"), edited("/repo/src/page-promo-forbes.php", "<?php"),
		}, ""},
		{"planned, not approved", []transcript.Turn{
			said("tech plan 19709"), replied(techPlan), said("no, use the other page as the source"),
		}, ""},
		{"carried out, checks by hand not reported", []transcript.Turn{
			said("fix the anchor jump"), plan, edited("/repo/src/quiz.js", "el.scrollIntoView()"), replied("Build succeeded; the fix is applied."),
		}, "Not verified by hand as the approved plan asks: Confirm the page scrolls to the pricing section, not the list"},
		{"the person spoke after the edits", []transcript.Turn{
			said("fix the anchor jump"), plan, edited("/repo/src/quiz.js", "el.scrollIntoView()"), replied("Done."), said("works, thanks"),
		}, ""},
		{"checks a command makes are not by hand", []transcript.Turn{
			said("fix the store"), {Speaker: transcript.Agent, Source: "plan", Approved: true, Text: "# Plan\n\n## Verification\n\n1. Run `go test ./...`\n2. Confirm it passes\n"},
			edited("/repo/store.go", "x"), replied("Done."),
		}, ""},
	} {
		checkPending(t, tc.name, tc.turns, tc.want)
	}
}

// The agent's last reply saying what it deliberately did not build yet
// names work left.
func TestLeftByAgentNotYet(t *testing.T) {
	for _, tc := range []struct {
		reply string
		want  string
	}{
		{"Added the roles.\n\n### Notes\n- I did not add the future “forced auth policy” fields/flows yet, per your instruction.",
			"I did not add the future “forced auth policy” fields/flows yet, per your instruction"},
		{"Added the roles. I didn't write the migration for the audit table yet.", "I didn't write the migration for the audit table yet"},
		{"Added the roles. I did not add anything else, as asked.", ""},
	} {
		s := &transcript.Session{Turns: []transcript.Turn{said("Add staff and super user roles"), replied(tc.reply)}}
		var got []string
		for _, c := range leftByAgent(s) {
			got = append(got, c.Title)
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
			t.Errorf("%q: got %q, want %q", tc.reply, got, tc.want)
		}
	}
}

// A request the session ended on, rejected, keeps what it listed.
func TestStoppedAtEndKeepsTheList(t *testing.T) {
	s := &transcript.Session{Turns: []transcript.Turn{
		said("I now want to apply this set of changes to several other templates. Update these templates: overview-3, article-trt, mens-trt-forbes and overview-tiktok."),
		{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ExitPlanMode", Status: transcript.NotRun, Why: "rejected"}},
	}}
	c, ok := stoppedAtEnd(s)
	if !ok || !strings.Contains(c.Body, "overview-tiktok") {
		t.Fatalf("the thread lost the templates the request listed:\n%s", c.Body)
	}
}

// A step the agent said it needed to take when the session ended under
// it, before any report.
func TestCutOff(t *testing.T) {
	read := transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Read", Status: transcript.OK}}
	fix := edited("/repo/graph/resolvers_test.go", "import (\n\t\"context\"\n)")
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		want  string
	}{
		{"ended on a read after the stated step", []transcript.Turn{
			said("lint fails on remote: gofmt"), fix, replied("I also need to put `grpc` back — let me find where `codes` and `status` are in the imports:"), read,
		}, "Cut off mid-work, before: I also need to put `grpc` back"},
		{"the agent reported after", []transcript.Turn{
			said("lint fails on remote: gofmt"), replied("I also need to put `grpc` back."), read, replied("Done: the imports are grouped."),
		}, ""},
		{"the step was written", []transcript.Turn{
			said("lint fails on remote: gofmt"), replied("I also need to put `grpc` back:"), edited("/repo/graph/resolvers_test.go", "\"google.golang.org/grpc\""), read,
		}, ""},
		{"a step naming nothing", []transcript.Turn{
			said("lint fails on remote: gofmt"), replied("I need to look at this more closely:"), read,
		}, ""},
	} {
		checkPending(t, tc.name, tc.turns, tc.want)
	}
}

// checkPending wants the one pending line want from turns, or none when
// want is empty.
func checkPending(t *testing.T, name string, turns []transcript.Turn, want string) {
	t.Helper()
	var got []string
	for _, p := range pendingWork(&transcript.Session{Turns: turns}) {
		got = append(got, p.line)
	}
	if want == "" && len(got) > 0 || want != "" && (len(got) != 1 || got[0] != want) {
		t.Errorf("%s: got %q, want %q", name, got, want)
	}
}
