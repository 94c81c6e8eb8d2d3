package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

var (
	// reLater marks work the person put off.
	reLater     = lazyre.New(`(?i)\b(later|afterwards|after (?:you|we|that|this) (?:finish|complete|are done)\w*|next time|in (?:the )?future|another time|at some point|eventually|down the (?:road|line)|remind me to|we(?:'ll| will)? (?:also )?(?:still )?need to|still need to|follow[- ]up on|come back to)\b`)
	reLaterLead = lazyre.New(`(?i)^(?:(?:make (?:a )?note|note|also|and|but|so)[,:]?\s*)*(?:(?:we(?:'ll| will)?|i(?:'ll| will)?) (?:also )?(?:still )?(?:need|want|have) to |remind me to |later,?\s*|in (?:the )?future,?\s*(?:we'?d want to |we(?:'ll| will)? )?)`)
	reWorkVerb  = lazyre.New(`(?i)\b(add|build|write|implement|support|fix|handle|update|refactor|remove|migrate|move|rename|test|document|deploy|release|clean|look (?:at|into)|investigate|revisit|set up|wire|limit|split|replace)\b`)
)

// extractThreads finds work left open at the end: what the person put off
// and nothing later in the session did, and a check still failing at the
// end that never passed.
func extractThreads(s *transcript.Session) []Candidate {
	var out []Candidate
	said := s.Said()
	for i, t := range said {
		for _, sent := range sentences(t.Text) {
			st := statement(sent)
			if !reLater.MatchString(st) || !reWorkVerb.MatchString(st) || strings.HasSuffix(st, "?") || reQuestionLead.MatchString(st) || len(st) > 300 ||
				reNotRule.MatchString(st) || reMaybe.MatchString(st) || strings.Contains(strings.ToLower(st), "what else") {
				continue
			}
			task := strings.TrimSpace(reLaterLead.ReplaceAllString(st, ""))
			if len(subject(task)) < 2 || doneLater(s, said[i+1:], task) || doneAfter(s, turnIndex(s, t), task) {
				continue
			}
			out = append(out, Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(task), Body: st,
				Tags: []string{"later"}, Status: schema.StatusOpen, Turns: []string{t.Ref}, Rule: "person put it off; not done later",
				Confidence: 0.7, Time: t.Time})
		}
	}
	if c, ok := failingAtEnd(s); ok {
		out = append(out, c)
	}
	if c, ok := stoppedAtEnd(s); ok {
		out = append(out, c)
	}
	out = append(out, leftByAgent(s)...)
	out = append(out, overwrittenLists(s)...)
	out = append(out, unresolvedWarnings(s)...)
	for _, p := range approvedPlans(s) {
		if c, ok := planNotCarriedOut(s, p); ok {
			out = append(out, c)
		}
	}
	return out
}

var reLeft = lazyre.New(`(?i)^(?:todo|fixme)\s*[:-]\s*(.{6,})|\b(?:still (?:needs?|missing|to (?:do|be done))|not (?:yet )?(?:implemented|wired|done|tested|handled|covered)|left to do|remaining work|haven'?t (?:yet )?(?:added|implemented|wired|tested)|(?:did not|didn'?t) (?:add|implement|wire|build|write|create)\b[^.!?]{3,80}?\byet)\b`)

// leftByAgent are the open items the agent named in its last reply:
// "TODO: …", "X is not implemented yet". Offers ("next, I could …") are
// not work left.
func leftByAgent(s *transcript.Session) []Candidate {
	last := lastReply(s)
	if last == nil {
		return nil
	}
	var out []Candidate
	for _, sent := range sentences(last.Text) {
		m := reLeft.FindStringSubmatch(sent)
		if m == nil || strings.HasSuffix(sent, "?") || reSpeculate.MatchString(sent) || len(sent) > 250 {
			continue
		}
		task := sent
		if m[1] != "" {
			task = m[1]
		}
		if len(subject(task)) < 3 {
			continue
		}
		out = append(out, Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(task), Body: sent,
			Tags: []string{"todo"}, Status: schema.StatusOpen, Turns: []string{last.Ref}, Rule: "the agent's last reply names it as left to do",
			Confidence: 0.7, Time: last.Time})
		if len(out) == 3 {
			break
		}
	}
	return out
}

var reWaiting = lazyre.New(`(?i)\b(?:once|when(?:ever)?) you(?:'ve| have)? (?:got|have|get|send|share|provide|created?|registered|set up)\b|\blet me know (?:when|once)\b|\bwaiting (?:for|on) you\b`)

// stoppedAtEnd is an open thread when the session ended with its last
// request not done: the person rejected the agent's last action and said
// nothing more, or the agent's last words wait on something from them.
func stoppedAtEnd(s *transcript.Session) (Candidate, bool) {
	asked := requests(s)
	if len(asked) == 0 {
		return Candidate{}, false
	}
	last := asked[len(asked)-1]
	for i := len(s.Turns) - 1; i >= 0; i-- {
		t := s.Turns[i]
		if t.Prior || t.Sidechain || t.Speaker == transcript.Injected {
			continue
		}
		if t.IsPerson() {
			return Candidate{}, false
		}
		if c := t.Call; c != nil {
			question := strings.HasSuffix(strings.TrimSpace(last.Text), "?") || reQuestionLead.MatchString(statement(last.Text))
			if c.Status == transcript.NotRun && c.Why == "rejected" && !question {
				what := shortCmd(c.Command)
				if what == "" {
					what = c.Tool + " " + strings.Join(c.Files, ", ")
				}
				return Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom("Not finished: " + ask(last.Text)),
					Body: fmt.Sprintf("The session ended when the person rejected %s, before this request was done:\n\n%s", strings.TrimSpace(what), whole(last.Text)),
					Tags: []string{"unfinished"}, Status: schema.StatusOpen, Turns: []string{last.Ref}, Tools: []string{c.ID},
					Rule: "the session ended on a rejected action", Confidence: 0.7, Time: t.Time}, true
			}
			return Candidate{}, false
		}
		if t.IsAgent() {
			for _, sent := range sentences(t.Text) {
				if reWaiting.MatchString(sent) && len(subject(sent)) >= 3 {
					return Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom("Waiting on the person: " + statement(sent)),
						Body: fmt.Sprintf("The session ended waiting on the person:\n\n%s\n\nLast request: %s", sent, ask(last.Text)),
						Tags: []string{"waiting"}, Status: schema.StatusOpen, Turns: []string{last.Ref, t.Ref},
						Rule: "the agent's last words wait on the person", Confidence: 0.7, Time: t.Time}, true
				}
			}
			return Candidate{}, false
		}
	}
	return Candidate{}, false
}

// whole is a request as the person put it, to a length: what it lists
// (the ten templates to update, say) is the work not done, and its first
// sentence rarely names it.
func whole(text string) string {
	return clip(oneLine(withoutAsides(statement(text))), 600)
}

// planNotCarriedOut is an open thread for a plan the person approved that
// no edit followed.
func planNotCarriedOut(s *transcript.Session, p transcript.Turn) (Candidate, bool) {
	after := false
	for _, t := range s.Turns {
		if t.Ref == p.Ref && t.Line == p.Line {
			after = true
			continue
		}
		if after && t.Call != nil && len(t.Call.Files) > 0 {
			return Candidate{}, false
		}
	}
	c, ok := approvedPlan(p)
	if !ok || !after {
		return Candidate{}, false
	}
	return Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom("Approved, not carried out: " + strings.TrimPrefix(c.Title, "Plan: ")),
		Body: "The person approved this plan; the session ended before any change was made.\n\n" + c.Body, Tags: []string{"unfinished", "plan"},
		Status: schema.StatusOpen, Turns: c.Turns, Rule: "an approved plan no edit followed", Confidence: 0.5, Time: s.End}, true
}

// doneLater reports a later request or a completed plan step on the same
// subject: the work was taken up in the session.
func doneLater(s *transcript.Session, later []transcript.Turn, task string) bool {
	subj := subject(task)
	for _, t := range later {
		if containment(subj, subject(t.Text)) >= 0.5 && shared(subj, subject(t.Text)) >= 2 {
			return true
		}
	}
	for _, c := range s.Calls() {
		for _, p := range c.Plan {
			if p.Done() && containment(subj, subject(p.Text)) >= 0.5 && shared(subj, subject(p.Text)) >= 2 {
				return true
			}
		}
	}
	return false
}

// failingAtEnd is an open thread when the last check of a kind the
// session ran (the last test run, say, whatever its arguments) failed for
// a reason inside the project (not the sandbox), and the person did not
// say it works afterwards.
func failingAtEnd(s *transcript.Session) (Candidate, bool) {
	last := map[string]*transcript.Call{}
	var order []string
	for _, c := range s.Calls() {
		if c.Status != transcript.OK && c.Status != transcript.Failed || timedOut(c) {
			continue
		}
		kind, _, _, ok := verifyCommand(c.Command)
		if !ok {
			continue
		}
		if last[kind] == nil {
			order = append(order, kind)
		}
		last[kind] = c
	}
	for _, kind := range order {
		c := last[kind]
		if c.Status != transcript.Failed || environmentFailure(c.Output) || confirmedAfter(s, c) || disowned(s, c) {
			continue
		}
		if errorExcerpt(c.Output) == "" {
			continue
		}
		ex := errorMessage(c.Output)
		_, cmd, _, _ := verifyCommand(c.Command)
		return Candidate{Kind: schema.KindThread, Scope: schema.ScopeProject, Title: titleFrom(fmt.Sprintf("`%s` still failing", cmd)),
			Body: fmt.Sprintf("The session ended with `%s` failing:\n\n    %s", cmd, ex), Tags: []string{"failing", kind},
			Status: schema.StatusOpen, Tools: []string{c.ID}, Rule: "the last " + kind + " run failed and nothing passed after it", Confidence: 0.75, Time: s.End}, true
	}
	return Candidate{}, false
}

// reDisowned is the agent saying a failure is not the session's: it was
// there before, it is another part of the project, or the environment.
var reDisowned = lazyre.New(`(?i)\b(pre-?existing|unrelated to (?:our|my|the|these|this|your) (?:changes?|work|edits?|code)|nothing to do with (?:our|my|the|these|this|your) (?:changes?|work|edits?|code)|not (?:caused by|related to|from) (?:our|my|the|these|this|your) (?:changes?|work|edits?)|(?:was|were|is|are) already (?:failing|broken) (?:before|on)|fail(?:s|ed|ing)? on (?:main|master) (?:too|as well)|sandbox(?:'s)? (?:network )?restrictions?|failed to listen on a port)`)

// disowned reports the agent saying, before the person spoke again, that
// a failing call's failure is not the session's: a thread for it would
// tell the next session to fix what nobody broke.
func disowned(s *transcript.Session, c *transcript.Call) bool {
	after := false
	for _, t := range s.Turns {
		switch {
		case t.Call == c:
			after = true
		case !after:
		case t.IsPerson() && substantive(t.Text):
			return false
		case t.IsAgent() && reDisowned.MatchString(t.Text):
			return true
		}
	}
	return false
}

// confirmedAfter reports the person saying it works after a call.
func confirmedAfter(s *transcript.Session, c *transcript.Call) bool {
	after := false
	for _, t := range s.Turns {
		if t.Call == c {
			after = true
			continue
		}
		if after && t.IsPerson() && confirms(t.Text) && !reDenied.MatchString(t.Text) {
			return true
		}
	}
	return false
}
