package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

var (
	// reDecision finds a person choosing: the choice follows the marker.
	reDecision = lazyre.New(`(?i)\b(?:we(?:'ve| have)? decided (?:to |on |that )?|(?:i|we) decided (?:to |on |that )?|let'?s (?:go with|use|stick with|switch to|keep|move to|migrate to|make it) |we(?:'ll| will) (?:go with|use|stick with|switch to) |we(?:'re| are) (?:going (?:with|to use)|using|standardi[sz]ing on) |in this project (?:i|we) (?:want to use|use) |i(?:'d| would) like to use |(?:switch|move|migrate) (?:it |this |everything )?to |go with |the decision is:? |decision: )(.+)`)
	// reInsteadOf is a choice with its alternative: "use X instead of Y".
	reInsteadOf = lazyre.New(`(?i)\b(?:instead of|rather than|over)\b`)
	// reProcess are choices about the conversation, not the project.
	reProcess = lazyre.New(`(?i)^(?:(?:it|this|that|them|these|those)\b|(?:look|see|check|discuss|talk|think|try|continue|start|go through|focus|worry|revisit|analy[sz]e|explore|investigate|review|debug|figure|move on|keep going|do it|do that|do this|the (?:plan|first|second|next|above|same))\b|(?:question|option|step|point|item) \d)`)
)

// extractDecisions finds what the person decided: a choice they stated,
// an answer they gave when the agent asked, a plan they approved.
func extractDecisions(s *transcript.Session) []Candidate {
	out := proseAnswers(s)
	picked := map[string]bool{}
	for _, c := range out {
		picked[c.Turns[len(c.Turns)-1]] = true
	}
	for _, t := range s.Said() {
		if picked[t.Ref] {
			continue // the choice is already told with what it was chosen over
		}
		sents := sentences(t.Text)
		for i, sent := range sents {
			c, ok := statedDecision(sent)
			if !ok {
				continue
			}
			// "I'd like to use optimistic locks. I don't want two processes
			// updating a user at once, because that messes up the audit
			// log": the reason in the next sentence makes it a decision.
			if c.Confidence < 0.8 && i+1 < len(sents) && reReasonNext.MatchString(sents[i+1]) && !strings.HasSuffix(sents[i+1], "?") {
				c.Body = strings.TrimRight(c.Body, ".") + ". " + statement(sents[i+1])
				c.Confidence += 0.25
				c.Rule += ", with its reason"
			}
			c.Turns, c.Time = []string{t.Ref}, t.Time
			out = append(out, c)
		}
	}
	out = append(out, directedDecisions(s)...)
	for _, t := range s.Turns {
		if t.Call != nil && t.Call.Tool == "Ask" && !t.Prior {
			out = append(out, answered(t)...)
		}
	}
	for _, t := range approvedPlans(s) {
		if c, ok := approvedPlan(t); ok {
			out = append(out, c)
		}
	}
	return out
}

var (
	reAskApproval = lazyre.New(`(?i)(does (?:this|the) plan look (?:good|right|ok)|shall i (?:proceed|go ahead|implement)|should i (?:proceed|go ahead|implement)|want me to (?:proceed|go ahead|implement|start)|ready to (?:implement|proceed)|approve (?:this|the) plan)`)
	reYes         = lazyre.New(`(?i)^\W*(?:yes|yep|yeah|sure|ok(?:ay)?|go(?: ahead)?|do it|lgtm|looks good|sounds good|approved?|proceed|implement (?:it|this|the plan)|execute (?:it|this|on this plan)|ship it)\b`)
	rePlanHeading = lazyre.New(`(?im)^#{1,3}\s+.*\bplan\b`)
	reStep        = lazyre.New(`(?m)^\s*(?:\d+[.)]|#{1,3} |[-*] \*\*)`)
)

// approvedPlans are the plans the person approved: plan mode's, or a
// plan-shaped reply that asked for approval and got a yes.
func approvedPlans(s *transcript.Session) []transcript.Turn {
	var out []transcript.Turn
	var pending *transcript.Turn
	for _, t := range s.Turns {
		switch {
		case t.IsPlan():
			if t.Approved {
				out = append(out, t)
			}
			pending = nil
		case t.IsAgent():
			pending = nil
			if reAskApproval.MatchString(t.Text) && len(reStep.FindAllStringIndex(t.Text, 4)) >= 3 && rePlanHeading.MatchString(t.Text) {
				p := t
				pending = &p
			}
		case t.IsPerson():
			if pending != nil && reYes.MatchString(t.Text) && len(t.Text) < 200 {
				out = append(out, *pending)
			}
			pending = nil
		}
	}
	return out
}

// statedDecision reads "let's go with X", "we'll use X instead of Y".
func statedDecision(sent string) (Candidate, bool) {
	s := statement(sent)
	m := reDecision.FindStringSubmatch(s)
	if m == nil || len(s) > 300 || strings.HasSuffix(s, "?") || reMaybe.MatchString(s) {
		return Candidate{}, false
	}
	choice := strings.TrimSpace(m[1])
	if reProcess.MatchString(choice) || len(subject(reDeictic.ReplaceAllString(choice, " "))) == 0 {
		return Candidate{}, false
	}
	// A choice with its reason or its alternative is a decision someone
	// can use later; "let's switch to X" alone is a step of the work.
	conf := 0.55
	if reInsteadOf.MatchString(s) || reBecause.MatchString(s) {
		conf = 0.8
	}
	if reOneOff.MatchString(s) {
		conf -= 0.3
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(decisionTitle(s)), Body: s,
		Tags: []string{"decision"}, Rule: "person stated a choice", Confidence: conf}, true
}

var reDecisionLead = lazyre.New(`(?i)^(?:i(?:'d| would) like to |we(?:'ve| have)? decided (?:to |on |that )?|(?:i|we) decided (?:to |on |that )?|let'?s |we(?:'ll| will) |we(?:'re| are) going (?:with |to use )|the decision is:? |decision: )`)

var reReasonNext = lazyre.New(`(?i)\b(?:because|so that|since (?:it|we|the|that|this)|as (?:it|that|this) (?:is|would|will|can)|otherwise)\b`)

var reBecause = lazyre.New(`(?i)(?:,\s*|\s+)(?:because|since|as|so that)\s+`)

// decisionTitle names the choice: without the "we decided to" lead, and
// without the reason, which the body keeps.
func decisionTitle(s string) string {
	t := reDecisionLead.ReplaceAllString(strings.TrimSpace(s), "")
	if loc := reBecause.FindStringIndex(t); loc != nil && loc[0] > 15 {
		t = t[:loc[0]]
	}
	if strings.TrimSpace(t) == "" {
		return s
	}
	return t
}

var reNone = lazyre.New(`(?i)^(none of the above|other|skip|n/?a|)$`)

// answered turns the person's answers to the agent's questions into
// decisions: the question and what was chosen.
func answered(t transcript.Turn) []Candidate {
	var out []Candidate
	for _, a := range t.Call.Answers {
		choice := strings.TrimSpace(strings.TrimSuffix(a.Choice, "(Recommended)"))
		if reNone.MatchString(choice) || strings.HasPrefix(strings.ToLower(choice), "none of the above") {
			continue
		}
		q := strings.TrimSpace(a.Question)
		title := choice
		if h, _, ok := strings.Cut(q, ":"); ok && len(h) < 30 {
			title = strings.TrimSpace(h) + ": " + choice
		}
		out = append(out, Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom(title),
			Body: fmt.Sprintf("Asked: %s\nChosen: %s", q, choice), Tags: []string{"decision", "answer"},
			Turns: []string{t.Ref}, Tools: []string{t.Call.ID}, Rule: "person answered the agent's question", Confidence: 0.75, Time: t.Time})
	}
	return out
}

var reTitleHeading = lazyre.New(`(?m)^#\s+(.+)$`)

var (
	rePlanLead    = lazyre.New(`(?i)^(?:technical |implementation )?plan(?: to)?:?\s*`)
	reApproachSec = lazyre.New(`(?i)^(fix|approach|solution|the fix|proposed (?:fix|change|approach)|changes?|design|decision|implementation|what (?:to|we'll) change)\b`)
	reGenericSec  = lazyre.New(`(?i)^(context|summary|plan|overview|background|problem|goal|goals|verification|testing|tests|files|steps|risks?|notes?|open questions|requirements?(?: readiness)?|assumptions|files? (?:touched|changed|to (?:change|touch|modify))|scope|out of scope|acceptance criteria|next steps|\d+\..*)$`)
)

// approvedPlan keeps what a plan the person approved decided: its title
// and its approach (the fix, the design), not its background.
func approvedPlan(t transcript.Turn) (Candidate, bool) {
	// The plan's name is its top heading; a plan without one is named by
	// what it changes.
	title := planTitle(t.Text)
	approach := firstSentences(planSection(t.Text), 500)
	gist := approach
	if gist == "" {
		gist = firstSentences(t.Text, 500)
	}
	if title == "" {
		title = firstSentences(approach, 90)
	}
	if gist == "" || title == "" {
		return Candidate{}, false // nothing to tell the decision by
	}
	title = rePlanLead.ReplaceAllString(title, "")
	// An approved plan is mostly steps that the session then carried out
	// (and often revised): a decision only where it says what was chosen
	// over what.
	conf := 0.55
	if reChosen.MatchString(gist) {
		conf = 0.7
	}
	return Candidate{Kind: schema.KindDecision, Scope: schema.ScopeProject, Title: titleFrom("Plan: " + title), Body: gist,
		Tags: []string{"decision", "plan"}, Turns: []string{t.Ref}, Rule: "person approved the agent's plan", Confidence: conf, Time: t.Time}, true
}

// planSection is the part of a plan that says what will change: a "Fix:"
// line, an Approach or Solution section; "" when it has none.
func planSection(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(strings.Trim(strings.TrimLeft(strings.TrimSpace(l), "#"), "* "))
		if !reApproachSec.MatchString(t) {
			continue
		}
		if _, after, ok := strings.Cut(t, ":"); ok && len(strings.TrimSpace(after)) > 20 {
			return strings.TrimSpace(after) + "\n" + strings.Join(lines[i+1:min(i+8, len(lines))], "\n")
		}
		return strings.Join(lines[i+1:min(i+10, len(lines))], "\n")
	}
	return ""
}
