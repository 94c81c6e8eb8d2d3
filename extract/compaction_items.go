package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
)

// The bullets of a compaction summary's "Errors and fixes" and "Problem
// Solving" sections are the agent's own hindsight at the point of
// compaction, so unlike a mid-session explanation they have already
// survived the work that followed them. What they still need is a lesson
// (a fixed typo is not knowledge) and not to say they were undone.
var (
	reLesson = lazyre.New(`(?i)(\bshould\b|\bmust\b|\binstead\b|\bneed(?:s|ed)?\b|\brequire[sd]?\b|\bbecause\b|\bonly\b|\bnever\b|\balways\b|\bdon'?t\b|\bdo not\b)`)
	reSlip   = lazyre.New(`(?i)^(user\b|the user\b|i\b|accidentally|typo|missing import|unused (?:import|variable)|syntax error|compile error)`)
	// A bullet that says its fix was later undone, or is still to come,
	// holds no fix that held.
	reUndone = lazyre.New(`(?i)\b(later (?:reverted|replaced|removed|dropped|changed|undone)|reverted (?:when|after|because|later)|approach changed|pending fix|not yet (?:fixed|implemented|resolved|done)|will be (?:resolved|fixed)|still (?:fails|failing|broken))\b`)
	// A bold lead names the problem: "**Codegen failed**: structs must …".
	reBoldLead = lazyre.New(`^\*\*([^*]{3,120})\*\*:?\s*(.*)$`)
	// Where the cause ends and the fix begins.
	reFixMark = lazyre.New(`(?:\s+[—–]\s+|\s+--\s+|:\s*fixed\b|\s+-\s+fixed\b|;\s*fixed\b|\.\s+(?:(?:Fixed|Corrected|Resolved|Solved|Moved|Changed|Switched)\b|Fix:)|\s+→\s+)`)
	// A choice over waiting (for a PR, a release) is a stopgap that goes
	// stale when the wait ends, not a design choice.
	reOverWaiting = lazyre.New(`(?i)\b(?:rather than|instead of)\s+(?:waiting|wait)\b`)
	// The person questioning what the agent did: the summary's "errors"
	// include the person's feedback, which settles a choice rather than
	// fixing a fault.
	reQuestioned = lazyre.New(`(?i)\b(?:the )?(?:user|person) (?:questioned|challenged|pushed back|objected|disagreed|asked why)\b`)
	// Where a fix's reason begins: "Corrected to X since …".
	reReason = lazyre.New(`(?i)\s+(?:since|because|as|so that)\s|[,;:]\s`)
	// An explicit alternative: what was chosen over what.
	reOver = lazyre.New("(?i)\\b(chosen over|chose .{2,60} over|rather than|instead of|in favou?r of|preferred over)\\b|\\bover `")
)

// summaryCase reads an "Errors and fixes" bullet, "<problem> — <fix>" or
// "**<problem>**: <cause>. Fixed by <fix>.", into a case.
func summaryCase(raw string) (Candidate, bool) {
	raw = strings.TrimSpace(raw)
	if strings.Contains(raw, "\n- ") {
		return labeledCase(raw)
	}
	head, rest := "", raw
	if m := reBoldLead.FindStringSubmatch(raw); m != nil {
		head, rest = strings.TrimRight(plain(m[1]), ": "), m[2]
	}
	rest = plain(rest)
	cause, fix := rest, ""
	if loc := reFixMark.FindStringIndex(rest); loc != nil && loc[0] > 0 {
		cause, fix = strings.TrimSpace(rest[:loc[0]]), strings.TrimSpace(strings.TrimLeft(rest[loc[0]:], " —–-:;.→"))
	} else if head != "" {
		cause, fix = "", rest
	}
	problem := head
	switch {
	case head == "":
		problem = cause
	case cause != "":
		problem = head + ": " + cause
	}
	lesson := fix
	if head != "" {
		lesson = cause + " " + fix
	}
	// "**Manual edit to x.pb.go**: User was angry" is the person's
	// reaction, which their rule records, not a cause.
	if problem == "" || fix == "" || reSlip.MatchString(problem) || head != "" && reSlip.MatchString(cause) || !reLesson.MatchString(lesson) ||
		reUndone.MatchString(raw) || len(raw) > 500 {
		return Candidate{}, false
	}
	title := problem
	if head != "" {
		title = head
	}
	if head != "" && reQuestioned.MatchString(cause) {
		return correctionDecision(head, cause, fix), true
	}
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom(title), Summary: clip(oneLine(problem+": "+fix), 200),
		Body: "Problem: " + problem + "\n\nFix: " + fix, Tags: []string{"gotcha"}, Rule: "error and fix recorded in the compaction summary", Confidence: 0.7}, true
}

var (
	reSubCause = lazyre.New(`(?i)^(?:root cause|cause|why|reason)\s*:\s*`)
	reSubFix   = lazyre.New(`(?i)^(?:fix(?:ed)?|solution|resolution|resolved)\s*:\s*`)
	reFeedback = lazyre.New(`(?i)^(?:per (?:the )?(?:user|person)'?s? (?:feedback|request)|(?:the )?(?:user|person) (?:said|asked|wants|prefers|corrected))\b`)
)

// labeledCase reads a bullet written as a bold problem over sub-bullets
// ("Root cause: …", "Fix: …"): the labels say which line is which, where
// a dash inside a line would mislead. The person's feedback on the fix
// settles it, and makes the bullet a decision.
func labeledCase(raw string) (Candidate, bool) {
	lines := strings.Split(raw, "\n- ")
	m := reBoldLead.FindStringSubmatch(lines[0])
	if m == nil || strings.TrimSpace(m[2]) != "" || reUndone.MatchString(raw) || len(raw) > 1200 {
		return Candidate{}, false
	}
	head := strings.TrimRight(plain(m[1]), ": ")
	var causes, fixes, feedback []string
	for _, l := range lines[1:] {
		l = plain(l)
		switch {
		case reSubCause.MatchString(l):
			causes = append(causes, reSubCause.ReplaceAllString(l, ""))
		case reSubFix.MatchString(l):
			fixes = append(fixes, reSubFix.ReplaceAllString(l, ""))
		case reFeedback.MatchString(l):
			// "Per user feedback in this session: prefer …" settles on what follows.
			if _, after, ok := strings.Cut(l, ": "); ok && len(after) > 10 {
				l = strings.ToUpper(after[:1]) + after[1:]
			}
			feedback = append(feedback, l)
		}
	}
	if len(feedback) > 0 {
		return correctionDecision(head, strings.Join(fixes, " "), strings.Join(feedback, " ")), true
	}
	cause, fix := strings.Join(causes, " "), strings.Join(fixes, " ")
	// A labelled root cause is the lesson a bare fix lacks.
	if cause == "" || fix == "" || reSlip.MatchString(head) {
		return Candidate{}, false
	}
	return Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom(head), Summary: clip(oneLine(head+": "+cause), 200),
		Body: "Problem: " + head + "\n\nCause: " + cause + "\n\nFix: " + fix, Tags: []string{"gotcha"},
		Rule: "error and fix recorded in the compaction summary", Confidence: 0.7}, true
}

// correctionDecision is an "Errors and fixes" bullet in which the person
// questioned a choice and the agent changed it: what a reader keeps is
// what was settled, titled by its outcome ("Pointer slices on view
// models: corrected to `[]Row`"), not a fault and its fix.
func correctionDecision(head, cause, fix string) Candidate {
	outcome := fix
	if loc := reReason.FindStringIndex(fix); loc != nil && loc[0] > 0 {
		outcome = fix[:loc[0]]
	}
	outcome = strings.TrimRight(outcome, ". ")
	if outcome != "" {
		outcome = strings.ToLower(outcome[:1]) + outcome[1:]
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(head + ": " + outcome),
		Summary: clip(oneLine(head+": "+fix), 200), Body: "Questioned by the person: " + head + ": " + cause + "\n\nSettled: " + fix,
		Tags: []string{"decision", "correction"}, Rule: "the person's correction recorded in the compaction summary", Confidence: 0.7}
}

// summaryDecision reads a "Problem Solving" bullet that records a choice.
// One that names what it was chosen over is a decision a reader keeps; a
// choice with only its purpose ("to avoid …") stays under the bar.
func summaryDecision(raw string) (Candidate, bool) {
	b := plain(raw)
	if !reChosen.MatchString(b) || reSpeculate.MatchString(b) || reUndone.MatchString(b) || len(b) > 300 {
		return Candidate{}, false
	}
	conf := 0.6
	if reOver.MatchString(b) && !reOverWaiting.MatchString(b) {
		conf = 0.75
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(b), Body: b,
		Tags: []string{"decision"}, Rule: "choice recorded in the compaction summary", Confidence: conf}, true
}

// withPurpose adds to a choice the work it was made for: a bare
// "`Timestamp` chosen over `string` for `expires_at`" does not say which
// message it is about. The summary's first request says, when it shares
// a word with the choice; a request about something else is left out
// rather than mislead.
func withPurpose(choice string, request []string) string {
	if len(request) == 0 {
		return choice
	}
	req := firstSentences(plain(request[0]), 320)
	if sharedLongWords(choice, req) > 0 { // "per", "add" say nothing of the subject
		return choice + "\n\nPart of: " + req
	}
	return choice
}
