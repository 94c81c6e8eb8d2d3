package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
)

func read(t *testing.T, name string) *Session {
	t.Helper()
	s, err := Read(golden.Path("transcript", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// render prints a session one turn per line, for golden files a person
// can review.
func render(s *Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id=%s agent=%s format=%s cwd=%s title=%q start=%s end=%s compacted=%d\n", s.ID, s.Agent, s.Format, s.Cwd, s.Title,
		s.Start.UTC().Format("2006-01-02T15:04:05"), s.End.UTC().Format("2006-01-02T15:04:05"), s.Compacted)
	for _, t := range s.Turns {
		flags := ""
		if t.Sidechain {
			flags += " sidechain"
		}
		if t.Prior {
			flags += " prior"
		}
		if t.Approved {
			flags += " approved"
		}
		head := fmt.Sprintf("L%d %s", t.Line, t.Speaker)
		if t.Source != "" {
			head += "/" + t.Source
		}
		if t.Form == Pasted {
			head += " pasted"
		}
		if c := t.Call; c != nil {
			exit := ""
			if c.Exit != nil {
				exit = fmt.Sprintf(" exit=%d", *c.Exit)
			}
			fmt.Fprintf(&b, "%s%s call %s %s%s", head, flags, c.Tool, c.Status, exit)
			if c.Why != "" {
				fmt.Fprintf(&b, " (%s)", c.Why)
			}
			if c.Command != "" {
				fmt.Fprintf(&b, " cmd=%q", clipText(c.Command, 60))
			}
			if len(c.Files) > 0 {
				fmt.Fprintf(&b, " files=%v", c.Files)
			}
			for _, p := range c.Plan {
				fmt.Fprintf(&b, " plan[%s %q]", p.Status, p.Text)
			}
			for _, a := range c.Answers {
				fmt.Fprintf(&b, " answer[%q=%q]", a.Question, a.Choice)
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "%s%s %q\n", head, flags, clipText(t.Text, 90))
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", strings.TrimPrefix(w, golden.Path("transcript")+string(filepath.Separator)))
	}
	return b.String()
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestGolden reads transcripts written in the shapes real agents write
// (Claude Code 1.0 and 2.1, Codex 0.34 and 0.105, a prompt template,
// cairn's journal) and compares the clean turns with reviewed golden files.
func TestGolden(t *testing.T) {
	for _, name := range []string{"claude-2x", "claude-1x", "codex-new", "codex-old", "codex-template", "journal"} {
		t.Run(name, func(t *testing.T) {
			golden.Assert(t, filepath.Join("transcript", name+".txt"), []byte(render(read(t, name+".jsonl"))))
		})
	}
}

func callByID(s *Session, id string) *Call {
	for _, c := range s.Calls() {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func TestClaudeCleaning(t *testing.T) {
	s := read(t, "claude-2x.jsonl")
	if s.ID != "7f3c2a10-1111-4222-8333-944455556666" {
		t.Errorf("session id %q: the file's own id, not the earlier session's", s.ID)
	}
	if s.Title != "coupon-totals" {
		t.Errorf("title %q: the person's custom title wins; a summary line whose leaf is not in the file is another session's", s.Title)
	}
	if got := s.Start.UTC().Format("15:04:05"); got != "09:00:01" {
		t.Errorf("start %s: turns copied from an earlier session do not start this one", got)
	}
	var said []string
	for _, t := range s.Said() {
		said = append(said, t.Text)
	}
	want := []string{
		"The cart total is wrong when a coupon is applied, can you fix it?",
		"no, never push to main from here, we always open a pull request",
		"the checkout page still shows the old total",
	}
	if strings.Join(said, "|") != strings.Join(want, "|") {
		t.Errorf("the person said:\n%q\nwant\n%q", said, want)
	}
	for id, want := range map[string]string{
		"toolu_bdrk_01AbCdEfGhIjKlMnOpQrStUv": "failed",
		"toolu_02":                            "failed", // rg found nothing: exit 1
		"toolu_03":                            "not-run/not-found",
		"toolu_05":                            "not-run/tool-error",
		"toolu_06":                            "not-run/rejected",
		"toolu_07":                            "ok",
		"toolu_sub1":                          "ok",
	} {
		c := callByID(s, id)
		if c == nil {
			t.Errorf("call %s missing", id)
			continue
		}
		got := string(c.Status)
		if c.Why != "" {
			got += "/" + c.Why
		}
		if got != want {
			t.Errorf("call %s: %s, want %s", id, got, want)
		}
	}
	if c := callByID(s, "toolu_05"); c != nil && len(c.Files) != 0 {
		t.Errorf("an edit that failed changed no file: %v", c.Files)
	}
	if c := callByID(s, "toolu_08"); c == nil || len(c.Answers) != 1 || c.Answers[0].Choice != "Half up" {
		t.Errorf("the person's answer: %+v", c)
	}
	if s.Compacted != 1 {
		t.Errorf("compactions %d", s.Compacted)
	}
	approved := false
	for _, t := range s.Turns {
		approved = approved || t.IsPlan() && t.Approved
	}
	if !approved {
		t.Error("the approved plan is not seen")
	}
	joined := strings.Join(s.Instructed, "\n")
	for _, w := range []string{"NEVER commit directly to main", "ALWAYS tag releases"} {
		if !strings.Contains(joined, w) {
			t.Errorf("instruction text %q not recognised as the harness's", w)
		}
	}
}

func TestCodexCleaning(t *testing.T) {
	s := read(t, "codex-new.jsonl")
	var said []string
	for _, t := range s.Said() {
		said = append(said, t.Text)
	}
	// The person typed the AGENTS.md rule back: it is the file's, not theirs.
	want := []string{"The scheduler drops jobs when two workers start at once. Fix it.", "please ask me questions in plain text, one at a time", "Implement the plan."}
	if strings.Join(said, "|") != strings.Join(want, "|") {
		t.Errorf("the person said:\n%q\nwant\n%q", said, want)
	}
	if c := callByID(s, "call_t1"); c == nil || c.Status != Failed || c.Exit == nil || *c.Exit != 101 {
		t.Errorf("a command's exit code arrives through write_stdin: %+v", c)
	}
	if c := callByID(s, "call_f1"); c == nil || c.Status != NotRun || c.Why != "rejected" {
		t.Errorf("rejected command: %+v", c)
	}
	if c := callByID(s, "call_s1"); c == nil || c.Status != NotRun || c.Why != "sandbox" {
		t.Errorf("failed in sandbox is not a run: %+v", c)
	}
	if c := callByID(s, "call_p1"); c == nil || strings.Join(c.Files, ",") != "src/scheduler.rs" {
		t.Errorf("apply_patch files: %+v", c)
	} else if p, _ := c.Input["input"].(string); !strings.Contains(p, "+let job = queue.claim_head()?;") {
		t.Errorf("freeform apply_patch keeps its patch as the function form does: %q", p)
	}
	if c := callByID(s, "call_q1"); c == nil || len(c.Answers) != 2 || !strings.HasPrefix(c.Answers[0].Choice, "Exponential") {
		t.Errorf("request_user_input answers: %+v", c)
	}
	approved := false
	for _, t := range s.Turns {
		approved = approved || t.IsPlan() && t.Approved
	}
	if !approved {
		t.Error("\"Implement the plan.\" approves the plan")
	}
	if s.Compacted != 1 {
		t.Errorf("compactions %d", s.Compacted)
	}

	old := read(t, "codex-old.jsonl")
	if c := callByID(old, "call_o1"); c == nil || c.Tool != "ApplyPatch" || strings.Join(c.Files, ",") != "printkit/cli/export.py" {
		t.Errorf("apply_patch through the shell: %+v", c)
	}
	if c := callByID(old, "call_o2"); c == nil || c.Status != Failed {
		t.Errorf("pytest failure from the metadata exit code: %+v", c)
	}
	if c := callByID(old, "call_o3"); c == nil || c.Status != NotRun {
		t.Errorf("a command missing in the sandbox did not run: %+v", c)
	}

	tpl := read(t, "codex-template.jsonl")
	if said := tpl.Said(); len(said) != 1 || said[0].Text != "Add rate limits to the public API" {
		t.Errorf("a prompt template's own words: %+v", said)
	}
}

func TestCleanPrompt(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"<system-reminder>Todo list is empty.</system-reminder>\nrun the tests", "run the tests"},
		{"[Image #2] the header overlaps the menu", "the header overlaps the menu"},
		{"<ide_selection>The user selected lines 1-9 of a.go</ide_selection>", ""},
		{"[Request interrupted by user]", ""},
		{"Caveat: The messages below were generated by the user while running local commands.", ""},
		{"<command-name>/review</command-name><command-args>the auth module</command-args>", ""},
		{"<command-name>/deploy</command-name><command-args>staging only</command-args>", "staging only"},
		{"use <T> in the generic signature", "use <T> in the generic signature"},
		{"the <div> wraps the form", "the <div> wraps the form"},
	} {
		if got, _ := CleanPrompt(tt.in); got != tt.want {
			t.Errorf("CleanPrompt(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Special files never block or exhaust a capture.
func TestReadBounds(t *testing.T) {
	dir := t.TempDir()
	// A line longer than the limit is skipped with a warning naming it,
	// and the rest is read.
	long := filepath.Join(dir, "long.jsonl")
	line := `{"type":"user","sessionId":"x","message":{"role":"user","content":"` + strings.Repeat("a", maxLine+10) + `"}}`
	if err := os.WriteFile(long, []byte(line+"\n"+`{"type":"user","sessionId":"x","uuid":"u2","message":{"role":"user","content":"fix the login form please"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Read(long)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Said()) != 1 || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "line 1") {
		t.Errorf("said %d, warnings %v", len(s.Said()), s.Warnings)
	}
}

// Terminal colours and control bytes in tool output never reach a memory.
func TestPlainText(t *testing.T) {
	in := "\x1b[38;5;9m• [FAILED]\x1b[0m got \x00 bell\x07 tab\tnew\nline\x1b(B"
	if got := plainText(in); got != "• [FAILED] got  bell tab\tnew\nline" {
		t.Errorf("plainText = %q", got)
	}
	c := &Call{Output: bound("\x1b[1mok\x1b[0m")}
	if c.Output != "ok" {
		t.Errorf("bound keeps escapes: %q", c.Output)
	}
}

// A pipe hides a failing test run's status; its output does not.
func TestHiddenFailure(t *testing.T) {
	for _, tt := range []struct {
		cmd, out string
		want     Status
	}{
		{"go test ./... 2>&1 | tail -5", "--- FAIL: TestX (0.00s)\nFAIL\tshop/cart\t0.01s", Failed},
		{"go test ./... | tail -5", "ok  \tshop/cart\t0.01s", OK},
		{"mix test | tee out.txt", "48 tests, 2 failures", Failed},
		{"mix test | tee out.txt", "48 tests, 0 failures", OK},
		{"go test ./...", "--- FAIL: TestX (0.00s)", OK}, // no pipe: the exit status says it all
		{"make test || true", "--- FAIL: TestX", OK},
	} {
		c := &Call{Tool: "Bash", Command: tt.cmd, Output: tt.out, Exit: atoiPtr("0")}
		classify(c, false)
		if c.Status != tt.want {
			t.Errorf("%q → %q: %s, want %s", tt.cmd, tt.out, c.Status, tt.want)
		}
	}
}

// A pasted rules block (headings, MUSTs) is instructions; the request the
// person wrote under its closing marker is theirs. Without a marker the
// block's last lines stay the template's.
func TestRequestUnderPastedRules(t *testing.T) {
	rules := "## Project guidelines\n\nYou **MUST** run the formatter.\n\n<!-- usage-rules-start -->\n## Go guidelines\n\n- You MUST wrap errors.\n" +
		strings.Repeat("- Never shadow a package name with a local variable in a handler.\n", 30) + "\n## Test guidelines\n\n- Use table tests.\n"
	for _, tt := range []struct{ in, want string }{
		{rules + "<!-- usage-rules-end -->\n\nMake the invoice export stream rows instead of loading them all. Only touch export.go.",
			"Make the invoice export stream rows instead of loading them all. Only touch export.go."},
		{rules + "\nMake the invoice export stream rows instead of loading them all.", ""},
		{rules + "<!-- usage-rules-end -->\n\n## Extra\n\nYou MUST also lint.", ""},
	} {
		if got, _ := CleanPrompt(tt.in); got != tt.want {
			t.Errorf("CleanPrompt(…%q) = %q, want %q", tt.in[len(tt.in)-60:], got, tt.want)
		}
	}
}
