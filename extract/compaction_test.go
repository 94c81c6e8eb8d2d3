package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/schema"
)

func TestSummaryCase(t *testing.T) {
	for _, tc := range []struct {
		name, bullet string
		want         bool
		title, fix   string
	}{
		{"dash with a lesson in the fix", "Running `make gen` at the root rewrites every module's stubs — should run it per module: `make gen MOD=billing`",
			true, "Running `make gen` at the root rewrites every module's stubs", "should run it per module: `make gen MOD=billing`"},
		{"bold lead, lesson in the cause", "**Schema build failed \"no such type Widget\"**: the Go type must exist before the generator runs. Fixed by adding `Widget` to `types.go` first.",
			true, "Schema build failed \"no such type Widget\"", "Fixed by adding `Widget` to `types.go` first."},
		{"bold lead, variadic need", "**Mock `Do` callback had the wrong arity**: `Exec` is variadic (`args ...any`), so the callback needed a trailing `_ ...any`. Fixed by changing the three callbacks to take it.",
			true, "Mock `Do` callback had the wrong arity", "Fixed by changing the three callbacks to take it."},
		{"bold lead, no marker: the rest is the fix", "**Flakes see only tracked files**: new files must be `git add`ed before `nix flake check` sees them",
			true, "Flakes see only tracked files", "new files must be `git add`ed before `nix flake check` sees them"},
		{"a fix later undone", "**Tests failed after adding Months to Outcome**: expectations lacked the field. Fixed by updating three expectations. Later reverted when the approach changed.", false, "", ""},
		{"a fix still to come", "**Undefined `GetStock`**: the proto was not regenerated yet. Expected — will be resolved after regeneration.", false, "", ""},
		{"a slip with no lesson", "`Logger.Info` given an int — fixed with `strconv.Itoa`", false, "", ""},
		{"the person fixed a typo", "Struct tag was `\"signedAt\"` — user fixed to `\"expiresAt\"`", false, "", ""},
		{"the person was angry: not a case", "User angry: \"stop changing things without asking\" — I rewrote the tests without checking", false, "", ""},
		{"a tooling slip with no lesson", "**Edit target not found**: the comment had been removed in an earlier commit, so the text did not match. Read the file again, then edited it.", false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := summaryCase(tc.bullet)
			if ok != tc.want {
				t.Fatalf("summaryCase(%q) ok = %v, want %v (%+v)", tc.bullet, ok, tc.want, c)
			}
			if !ok {
				return
			}
			if c.Title != titleFrom(tc.title) || c.Kind != schema.KindCase {
				t.Errorf("title = %q, want %q", c.Title, titleFrom(tc.title))
			}
			if want := "Fix: " + tc.fix; !contains(c.Body, want) {
				t.Errorf("body = %q, want it to hold %q", c.Body, want)
			}
		})
	}
}

// A bullet in which the person questioned a choice is what was settled,
// a decision titled by its outcome, not a case.
func TestSummaryCaseCorrection(t *testing.T) {
	for _, tc := range []struct{ bullet, title, settled string }{
		{"**Pointer slices on view models**: Started with `[]*Row`. The person asked why. Corrected to `[]Row` since rows never need to be nil.",
			"Pointer slices on view models: corrected to `[]Row`", "Settled: Corrected to `[]Row` since rows never need to be nil."},
		{"**Retry loop in the client**: First wrapped every call. User questioned it. Moved the retry into the transport, because only idempotent calls may retry.",
			"Retry loop in the client: moved the retry into the transport", "Settled: Moved the retry into the transport, because only idempotent calls may retry."},
	} {
		c, ok := summaryCase(tc.bullet)
		if !ok || c.Kind != schema.KindDecision || c.Title != titleFrom(tc.title) || !contains(c.Body, tc.settled) || !contains(c.Body, "Questioned by the person") {
			t.Errorf("summaryCase(%q) = %v %+v, want a decision %q holding %q", tc.bullet, ok, c, tc.title, tc.settled)
		}
	}
}

func TestSummaryDecision(t *testing.T) {
	for _, tc := range []struct {
		bullet string
		conf   float64 // 0: no candidate
	}{
		{"`FindOneAndModify` loop chosen over `UpdateAll+Find` for atomicity", 0.75},
		{"Made `sizes` generic (`[{key, values}]`) rather than fixed width/height fields", 0.75},
		{"`Duration` message chosen over `int64` seconds in the event", 0.75},
		{"Stub generation scoped to one service to avoid touching stale stubs elsewhere", 0.6},
		{"`clockFunc` added here rather than waiting for the unmerged clock PR", 0.6},
		{"Probably chose the cache over a second query because it seems faster", 0},
		{"Picked `Upsert` instead of `Insert`; later reverted when the approach changed", 0},
		{"Read the config first, then ran the tests", 0},
	} {
		c, ok := summaryDecision(tc.bullet)
		if got := map[bool]float64{true: c.Confidence}[ok]; got != tc.conf {
			t.Errorf("summaryDecision(%q) confidence = %v, want %v", tc.bullet, got, tc.conf)
		}
	}
}

// The person's anger at a hand edit is their rule's to record (the rules
// extractor keeps "never …"); as a case it is a problem with no cause.
func TestSummaryCaseNotTheReaction(t *testing.T) {
	b := "**Manual edit to `api.pb.go`**: User was angry — \"never hand-edit generated code\". Reverted with `git checkout`. Regeneration required instead."
	if c, ok := summaryCase(b); ok {
		t.Errorf("summaryCase kept the person's reaction as a case: %+v", c)
	}
}

// A choice from a compaction summary says which work it was made for when
// the summary's request shares a word with it, and only then.
func TestChoiceWithPurpose(t *testing.T) {
	req := []string{"Implement INV-42: invoice reminders. Add a `REMINDED` state, store `reminded_at` on each invoice, and publish an `InvoiceOverdue` event per overdue invoice. Tests still to migrate."}
	for _, tc := range []struct {
		choice string
		want   string // in the body, or "" for no purpose line
	}{
		{"`int64` chosen over `string` for `reminded_at` in proto", "Part of: Implement INV-42: invoice reminders. Add a `REMINDED` state"},
		{"Chose the worker pool over goroutines per request", ""},
	} {
		got := withPurpose(tc.choice, req)
		switch {
		case tc.want == "" && got != tc.choice:
			t.Errorf("%q: unrelated request added:\n%s", tc.choice, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%q: body %q, want it to hold %q", tc.choice, got, tc.want)
		}
	}
	if got := withPurpose("`int64` chosen over `string`", nil); got != "`int64` chosen over `string`" {
		t.Errorf("no request: %q", got)
	}
}

// A bullet written as a bold problem over labelled sub-bullets is read by
// its labels, since a dash inside a line would split it in the wrong
// place; the person's feedback on the fix makes it what was settled.
func TestSummaryCaseLabelled(t *testing.T) {
	const summary = "4. Errors and fixes:\n\n" +
		"   - **Menu: dropdown items invisible**\n" +
		"     - Root cause: `[hidden] { display: none !important }` in `base.css` matches the items the menu library marks hidden while closed\n" +
		"     - `keyboard: false` does NOT prevent this — it only turns off arrow keys\n" +
		"     - Fix: Added `.menu-item[hidden] { display: block !important; }` inside `.nav-menu`\n" +
		"     - Confirmed via `evaluate_script`: items now have `display: \"block\"`\n\n" +
		"   - **Card images 404ing**\n" +
		"     - files `card-1..4.webp` don't exist in `img/`\n" +
		"     - Fix: Changed PHP to use a placeholder service\n" +
		"     - Per user feedback in this session: prefer the expected file path with a background-color fallback, placeholders only when no file is named\n\n" +
		"   - **Typo in class name**\n" +
		"     - Fix: renamed it\n\n" +
		"5. Problem Solving:\n   - Used the browser tools step by step\n"
	bullets := summarySections(summary)["errors and fixes"]
	if len(bullets) != 3 {
		t.Fatalf("sub-bullets were not kept with their bullet: %q", bullets)
	}
	c, ok := summaryCase(bullets[0])
	if !ok || c.Kind != schema.KindCase || c.Title != "Menu: dropdown items invisible" ||
		!contains(c.Body, "Cause: `[hidden] { display: none !important }` in `base.css`") || !contains(c.Body, "Fix: Added `.menu-item[hidden]") {
		t.Errorf("labelled case = %v %+v", ok, c)
	}
	c, ok = summaryCase(bullets[1])
	if !ok || c.Kind != schema.KindDecision || c.Title != titleFrom("Card images 404ing: prefer the expected file path with a background-color fallback") || !contains(c.Body, "Settled: Prefer the expected file path") {
		t.Errorf("feedback on the fix = %v %+v", ok, c)
	}
	if c, ok := summaryCase(bullets[2]); ok {
		t.Errorf("a fix with no cause is no case: %+v", c)
	}
}
