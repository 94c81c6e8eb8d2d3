package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

var (
	// reCause marks an explanation of what went wrong.
	reCause = lazyre.New(`(?i)\b(root cause|the (?:real |actual |underlying )?(?:issue|problem|bug|culprit|cause|error) (?:is|was|here is|here was)\b|turns? out|it turned out|(?:this|that|it) (?:happens|happened|is happening|fails|failed) because|the reason (?:is|was)|(?:is|was|were|are) caused by|that'?s why|which is why|found (?:it|the (?:issue|problem|bug|cause)))`)
	// reStrongCause are the markers that name a cause outright.
	reStrongCause = lazyre.New(`(?i)\b(root cause|turns? out|it turned out|caused by|the (?:real |actual |underlying )?(?:issue|problem|bug|culprit) (?:is|was))\b`)
	reSpeculate   = lazyre.New(`(?i)\b(might|may|maybe|probably|likely|possibly|perhaps|i suspect|suspect|could be|seems?|appears?|i think|i believe|my guess|presumably|potentially|if )\b`)
	reCauseLead   = lazyre.New(`(?i)^(?:found it[.!:]?\s*|got it[.!:]?\s*|ah[,.!]?\s*|i see[.!:]?\s*|okay[,.]?\s*|so[,]?\s*)*(?:the (?:root cause|real issue|actual issue|issue|problem|bug|culprit)(?: here)? (?:is|was)(?: that)?:?\s*|(?:root )?causes?:?\s*)`)
	reErrorLine   = lazyre.New(`(?i)(error|fail|panic|undefined|cannot|can't|not found|exception|traceback|denied|refused|invalid|unexpected|\bgot\b.*\bwant\b|\.\w+:\d+:)`)
	reErrorNoise  = lazyre.New(`(?i)^(FAIL|FAIL\s+\S+\s+[\d.]+s|exit code:? \d+|process exited with code \d+|error: process completed with exit code \d+\.?|chunk id: \w+|wall time: .*|[=\-_*#~ ]{3,}[\w ]*[=\-_*#~ ]{3,}|[\w./\\-]+:\d+:?)$`)
	reTrouble     = lazyre.New(`(?i)\b(error|errors|fails?|failing|failed|broken|breaks|doesn'?t work|does not work|not working|isn'?t working|still (?:no|not|the same|broken|fails|laggy|getting|cannot|can'?t)|blank (?:screen|page)|crash\w*|exception|traceback|wrong|bug|why (?:does|is|did|are)|can'?t|cannot|nothing happens|same error|doesn'?t (?:show|load|start|run|appear)|not (?:appearing|showing|visible|loading|updating)|keeps? (?:getting|failing|crashing|showing)|keep getting)\b`)
	reConfirm     = lazyre.New(`(?i)\b(works|worked|working now|it'?s fixed|fixed it|that fixed|that did it|that worked|perfect|great|awesome|nice|thanks|thank you|looks good|all good|solved)\b`)
	reDenied      = lazyre.New(`(?i)^\W*(still|nope|no\b|same (?:error|issue|problem|thing)|doesn'?t work|not fixed|didn'?t work|that'?s not it|wrong)`)
	reProbe       = lazyre.New(`^(?:cd \S+ && )?(?:grep|rg|find|ls|cat|head|tail|which|type|command -v|test|\[|stat|file|wc|diff|git (?:status|diff|log|show|grep|ls-files|branch|remote)|echo|pgrep|ps|lsof|curl -s|jq|sed -n|awk)\b`)
)

// problem is something that went wrong: a command that failed, or the
// person saying so; and what the session made of it.
type problem struct {
	symptom string // what it looked like
	call    *transcript.Call
	turn    transcript.Turn
	start   int       // index of turn in the session
	best    Candidate // the surest explanation found so far
	env     []string  // environment steps taken since (escalation, installs, line endings)
}

// extractGotchas finds the knowledge a fix leaves behind: something went
// wrong (a real failure, or the person reporting one), the agent said why
// (outright, or plainly right after the failure; a guess counts less),
// and the fix held (a check passed, the failing command passed, or the
// person said it works). One case per problem, the surest explanation.
func extractGotchas(s *transcript.Session) []Candidate {
	var out []Candidate
	var cur *problem
	edited := false // the agent changed files since the person last asked
	closeProblem := func() {
		if cur != nil && cur.best.Title != "" {
			out = append(out, cur.best)
		}
		cur = nil
	}
	for i, t := range s.Turns {
		if t.Prior || t.Sidechain {
			continue
		}
		switch {
		case t.Call != nil:
			c := t.Call
			if p, ok := failure(c); ok {
				switch {
				case cur == nil && edited:
					// It broke after the agent's own change: iteration, not a
					// problem the project had.
				case cur == nil:
					p.turn, p.start = t, i
					cur = &p
				case cur.call == nil:
					cur.call = c // the failure behind the person's report
				}
				continue
			}
			if len(c.Files) > 0 {
				edited = true
			}
			if cur == nil {
				continue
			}
			// The same command run again outside the sandbox is not a fix of
			// the project: the commands memory says which checks need it.
			if envStep(c) && !(cur.call != nil && sameCommand(c, cur.call)) {
				cur.env = append(cur.env, shortCmd(c.Command))
			}
			if cur.call != nil && c.Status == transcript.OK && sameCommand(c, cur.call) {
				if cand, ok := retried(s, cur); ok && cand.Confidence > cur.best.Confidence {
					cur.best = cand
				}
				closeProblem()
			}
		case t.IsPerson():
			switch {
			case troubled(t):
				closeProblem()
				cur = &problem{symptom: reported(t.Text), turn: t, start: i}
			case substantive(t.Text) && !confirms(t.Text):
				closeProblem() // a new request: the old problem is behind us
			}
			edited = false
		case t.IsAgent() && cur != nil:
			if c, ok := explained(s, i, *cur); ok && c.Confidence > cur.best.Confidence {
				cur.best = c
			}
		}
	}
	closeProblem()
	out = append(out, unclaimed(out, slices.Concat(preconditionCases(s), dependencyCases(s), skippedChecks(s), missingTools(s)))...)
	if c, ok := lineEndings(s); ok {
		// The line-endings case says it with the evidence: an agent's
		// account of the same thing would repeat it.
		out = slices.DeleteFunc(out, func(o Candidate) bool { return reLineEndings.MatchString(o.Title + " " + o.Summary) })
		out = append(out, c)
	}
	return out
}

// unclaimed are the cases in more whose failure no case in out already
// tells.
func unclaimed(out, more []Candidate) []Candidate {
	told := map[string]bool{}
	for _, c := range out {
		for _, id := range c.Tools {
			told[id] = true
		}
	}
	return slices.DeleteFunc(more, func(c Candidate) bool { return len(c.Tools) > 0 && told[c.Tools[0]] })
}

var reEnvStep = lazyre.New(`^(?:sudo\s+)?(?:dos2unix|sed -i.*\\r|tr -d|chmod|chown|pip3? install|uv (?:pip|sync|add)|poetry install|npm (?:install|ci|i)\b|pnpm install|yarn(?: install)?$|bundle install|go mod (?:tidy|download)|cargo fetch|mix deps\.get|apt(?:-get)? install|brew install|nix (?:develop|shell)|export |source |git (?:checkout|switch|stash|pull|fetch|submodule)|docker(?:-compose| compose) (?:up|pull|build)|mkdir|ln -s|usermod|newgrp|rm -rf \S*(?:cache|node_modules|\.lock))`)

// reVague is a cause that names no mechanism: "importing it behaved
// inconsistently" says the agent did not find out why.
var reVague = lazyre.New(`(?i)\b(inconsistent(?:ly)?|somehow|for some reason|weird(?:ly)?|odd(?:ly)?|strange(?:ly)?|mysterious(?:ly)?|flaky|intermittent(?:ly)?|unclear why)\b`)

var reCausal = lazyre.New(`(?i)\b(because|since|due to|caused|means|expects?|requires?|is missing|are missing|isn'?t|aren'?t|doesn'?t|don'?t|can'?t|cannot|wasn'?t|weren'?t|didn'?t|mismatch\w*|conflicts?|only (?:works|accepts|reads|runs)|stemmed from|instead of)\b`)

// explained looks in an agent turn for the cause of the current problem,
// and in what followed for the fix and whether it held.
func explained(s *transcript.Session, at int, p problem) (Candidate, bool) {
	t := s.Turns[at]
	var sents []string
	for _, sent := range sentences(t.Text) {
		sent = dropChatLead(sent)
		if len(sent) < 30 || len(sent) > 400 || reNarration.MatchString(sent) || strings.HasSuffix(sent, "?") {
			continue
		}
		sents = append(sents, sent)
	}
	// A cause named as "X, not Y" with both sides seen comes first.
	cause, contrasted := contrastCause(s, at, p, sents)
	strong := contrasted
	for _, sent := range sents {
		if contrasted {
			break
		}
		if reCause.MatchString(sent) || reCauseLabel.MatchString(sent) {
			cause, strong = sent, reStrongCause.MatchString(sent) || reCauseLabel.MatchString(sent)
			break
		}
		if cause == "" && reCausal.MatchString(sent) {
			cause = sent // the first plain explanation after the failure
		}
	}
	if cause == "" {
		return Candidate{}, false
	}
	// A case is worth keeping when its cause was named and its fix was
	// seen to hold; a plain explanation needs the person's word too.
	conf := 0.35
	var rule []string
	if strong {
		conf += 0.25
		rule = append(rule, "cause named")
	}
	if reSpeculate.MatchString(cause) || reVague.MatchString(cause) {
		conf -= 0.2
		rule = append(rule, "a guess")
	}
	files, verified, confirmed, denied := aftermath(s, at, p)
	if denied {
		return Candidate{}, false // the person said it still fails: the cause was wrong
	}
	if len(files) == 0 && verified == "" {
		// A report written after the work: the fix came before it.
		files, verified = fixedBefore(s, at, p)
	}
	if len(files) > 0 {
		conf += 0.05
		rule = append(rule, "fixed")
	}
	if verified != "" {
		conf += 0.2
		rule = append(rule, "verified")
	}
	if confirmed {
		conf += 0.1
		rule = append(rule, "confirmed")
	}
	title := strings.TrimSpace(reCauseLead.ReplaceAllString(statement(cause), ""))
	if len(title) < 20 {
		title = cause
	}
	if !contrasted && len(subject(reCause.ReplaceAllString(title, " "))) < 4 {
		return Candidate{}, false // "Same root cause here": it names no cause
	}
	var b strings.Builder
	symptom := p.symptom
	if contrasted {
		symptom = failureLine(p, cause)
	}
	fmt.Fprintf(&b, "Symptom: %s\n\nCause: %s\n", symptom, reCauseLabelLead.ReplaceAllString(cause, ""))
	if fix := fixSentence(t.Text, cause); fix != "" {
		fmt.Fprintf(&b, "\nFix: %s\n", fix)
	} else if len(files) > 0 {
		fmt.Fprintf(&b, "\nFix: changed %s.\n", strings.Join(uniqueStrings(files)[:min(4, len(uniqueStrings(files)))], ", "))
	}
	if verified != "" {
		fmt.Fprintf(&b, "\nVerified: %s\n", verified)
	}
	c := Candidate{Kind: schema.KindCase, Scope: schema.ScopeProject, Title: titleFrom(title), Body: strings.TrimSpace(b.String()),
		Summary: clip(oneLine(statement(cause)), 200),
		Tags:    []string{"gotcha"}, Turns: []string{p.turn.Ref, t.Ref}, Rule: "problem explained: " + strings.Join(rule, ", "),
		Confidence: conf, Time: t.Time}
	if p.call != nil {
		c.Tools = []string{p.call.ID}
	}
	return c, true
}

// confirms reports the person saying it works: a short reply, not a new
// request that happens to say "great".
func confirms(text string) bool {
	t := strings.TrimSpace(text)
	return reConfirm.MatchString(t) && (len(t) < 80 || reConfirm.MatchString(t[:min(len(t), 40)]))
}

var (
	reCauseLabel     = lazyre.New(`(?i)^(?:root )?causes?:\s+\S`)
	reCauseLabelLead = lazyre.New(`(?i)^(?:root )?causes?:\s*`)
)

func uniqueStrings(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// aftermath reads what followed an explanation up to the person's next
// request: the files changed, whether a check or the failing command
// passed or the person confirmed, and whether the person said it still
// fails.
func aftermath(s *transcript.Session, at int, p problem) (files []string, verified string, confirmed, denied bool) {
	for _, t := range s.Turns[at+1:] {
		if t.Prior {
			continue
		}
		if c := t.Call; c != nil {
			for _, f := range c.Files {
				files = append(files, rel(s, f))
			}
			if c.Status != transcript.OK || verified != "" || len(files) == 0 {
				continue
			}
			verified = passed(c, p)
			continue
		}
		if !t.IsPerson() {
			continue
		}
		switch {
		case reDenied.MatchString(t.Text):
			return files, "", false, true
		case confirms(t.Text):
			if verified == "" {
				verified = fmt.Sprintf("the person confirmed: %q", clip(oneLine(statement(t.Text)), 80))
			}
			confirmed = true
		}
		return files, verified, confirmed, false
	}
	return files, verified, confirmed, false
}

var (
	reFixSentence = lazyre.New(`(?i)\b(the fix (?:is|was)|fixed (?:it |this )?by|i(?:'ve| have)? (?:changed|moved|replaced|added|removed|updated|switched|renamed)|(?:changing|moving|replacing|adding|removing|switching) .{3,80} (?:fixes|fixed|solves|solved))\b`)
	reFixLabel    = lazyre.New(`(?i)^(?:the )?(?:fix(?:es)?|solution|resolution):\s+\S`)
)

// fixSentence is the agent's own account of the fix: the first one after
// the cause (a report pairs each "Cause:" with its "Fix:"), else any.
func fixSentence(text, cause string) string {
	sents := sentences(text)
	from := max(0, slices.Index(sents, cause))
	for _, part := range [][]string{sents[from:], sents[:from]} {
		for _, sent := range part {
			if sent != cause && len(sent) <= 300 && (reFixSentence.MatchString(sent) || reFixLabel.MatchString(sent)) {
				return strings.TrimSpace(reFixLead.ReplaceAllString(sent, ""))
			}
		}
	}
	return ""
}

var reFixLead = lazyre.New(`(?i)^(?:the )?(?:fix(?:es)?|solution|resolution):\s*`)

// fixedBefore reads the work between the problem and a report written
// after it: the files changed, and a check that passed after the last
// change.
func fixedBefore(s *transcript.Session, at int, p problem) (files []string, verified string) {
	if p.start >= at {
		return nil, ""
	}
	for _, t := range s.Turns[p.start+1 : at] {
		c := t.Call
		if c == nil || t.Prior {
			continue
		}
		if len(c.Files) > 0 {
			for _, f := range c.Files {
				files = append(files, rel(s, f))
			}
			verified = "" // a check counts only after the last change
			continue
		}
		if c.Status != transcript.OK || len(files) == 0 {
			continue
		}
		if v := passed(c, p); v != "" {
			verified = v
		}
	}
	return files, verified
}

// errorExcerpt keeps the lines of an output that say what went wrong.
func errorExcerpt(out string) string {
	var picked []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && len(l) < 300 && reErrorLine.MatchString(l) && !reErrorNoise.MatchString(l) {
			picked = append(picked, l)
		}
		if len(picked) == 2 {
			break
		}
	}
	return clip(strings.Join(picked, " / "), 300)
}

// errorMessage is what a reader is shown of a failure: the error messages
// themselves (pytest's "E   ImportError: ...", "error: ...", "panic: ...")
// rather than lines that merely look like errors (a traceback's
// file:line frames); the excerpt when there are none.
func errorMessage(out string) string {
	if m := strongErrors(out); m != "" {
		return m
	}
	return errorExcerpt(out)
}

// strongErrors are the error messages themselves in out, at most two;
// "" when it holds none.
func strongErrors(out string) string {
	var strong []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		// A message may run long (Elixir prints the whole reason term):
		// its head says what went wrong.
		if l != "" && len(l) < 4000 && reErrorLine.MatchString(l) && !reErrorNoise.MatchString(l) && reErrorMessage.MatchString(l) {
			if m := clip(strings.TrimSpace(strings.TrimPrefix(l, "E ")), 160); !slices.Contains(strong, m) {
				strong = append(strong, m)
			}
		}
		if len(strong) == 2 {
			break
		}
	}
	return clip(strings.Join(strong, " / "), 300)
}

var reErrorMessage = lazyre.New(`(?i)^(?:E\s+|\*\*\s*)?(?:\((?-i:[\w.]*(?:Error|Exception))\)\s+\S|(?-i:[\w.]*(?:Error|Exception|Failure))\b:\s*\S|error(?:\[\w+\])?:\s*\S|fatal:|panic:|\w+: command not found|.*\b(?:cannot|can't|could not|unable to|failed to|no such|not found|undefined|unexpected)\b)`)

// shortCmd keeps a command readable in a sentence: its first line, the
// command a cd leads to, at most 80 characters.
func shortCmd(cmd string) string {
	if _, clean, _, ok := verifyCommand(cmd); ok {
		return clean
	}
	cmd, _, _ = strings.Cut(strings.TrimSpace(cmd), "\n")
	segs := splitSegments(cmd)
	for _, s := range segs {
		if !reCd.MatchString(s) && !reSetup.MatchString(s) {
			cmd = s
			break
		}
	}
	return clip(oneLine(cmd), 80)
}
