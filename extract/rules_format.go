package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// The person objecting to the form of the agent's answers ("why are you
// just giving me JSON?"), and the agent conceding and answering again in
// another form, says how they want answers everywhere: a preference that
// follows the person, not the project.

// reFormObjection asks why, or tells the agent to stop, giving the person
// an answer in a form: "why u just giving me json", "stop showing me
// tables". It names the person ("me"), so "why are you returning JSON
// from the endpoint" is a question about the code, not the answer.
var reFormObjection = lazyre.New(`(?i)^(?:why (?:are |r )?(?:u|you) (?:just |only |still |always )?(?:giving|showing|sending|dumping|printing|outputting|spitting out|answering|replying) (?:me|us)|(?:please )?(?:stop|quit) (?:giving|showing|sending|dumping|printing) (?:me|us)|(?:please )?(?:don'?t|dont|do not) (?:give|show|send|dump|print) (?:me|us)|(?:can|could) (?:u|you) (?:not|stop) (?:give|giving|show|showing|dump|dumping) (?:me|us))(?: (?:in|with|raw|plain|a|an|this|all this|all that|the|some|just|big|huge|more))* (json|yaml|xml|tables?)\b`)

// answerForm is a form an answer can take that a person may not want.
type answerForm struct {
	title string                 // the preference, as a title
	name  string                 // what the agent gave, in the body
	shows func(text string) bool // an agent turn answers in this form
}

var answerForms = map[string]answerForm{
	"json":   {"Readable answers, not raw JSON", "a raw JSON block", fenced("json", "{", "[")},
	"yaml":   {"Readable answers, not raw YAML", "a raw YAML block", fenced("yaml", "yml")},
	"xml":    {"Readable answers, not raw XML", "a raw XML block", fenced("xml", "<")},
	"table":  {"Answers in prose, not tables", "a table", hasTable},
	"tables": {"Answers in prose, not tables", "a table", hasTable},
}

// fenced reports a code block marked with one of the languages, or whose
// first line starts with one of the openers ("{" for unmarked JSON).
func fenced(marks ...string) func(string) bool {
	return func(text string) bool {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lang, ok := strings.CutPrefix(strings.TrimSpace(l), "```")
			if !ok || i+1 >= len(lines) {
				continue
			}
			first := strings.TrimSpace(lines[i+1])
			for _, m := range marks {
				if strings.EqualFold(strings.TrimSpace(lang), m) || lang == "" && strings.HasPrefix(first, m) && len(m) == 1 {
					return true
				}
			}
		}
		return false
	}
}

var reTableRule = lazyre.New(`(?m)^\s*\|?\s*:?-{3,}:?\s*\|`)

func hasTable(text string) bool { return reTableRule.MatchString(text) }

// reListed is a numbered item, bold or not: "1. ", "**2. Title**".
var reListed = lazyre.New(`(?m)^\s*(?:\*\*)?\d{1,2}[.)]\s`)

// formObjections finds the person objecting to the form of the agent's
// last answer, when the agent's next reply concedes and drops that form.
func formObjections(s *transcript.Session) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	var before *transcript.Turn // the agent's last prose
	for i, t := range s.Turns {
		if t.IsAgent() {
			a := t
			before = &a
			continue
		}
		if !t.IsPerson() || t.Form == transcript.Pasted {
			continue
		}
		prev := before
		before = nil
		if len(t.Text) > 300 {
			continue // an objection is short; most turns are not
		}
		said := statement(t.Text)
		m := reFormObjection.FindStringSubmatch(said)
		if m == nil || prev == nil || len(said) > 160 {
			continue
		}
		form := answerForms[strings.ToLower(m[1])]
		reply, ok := nextReply(s, i)
		if !form.shows(prev.Text) || !ok || !conceded(reply.Text) || form.shows(reply.Text) || seen[form.title] {
			continue
		}
		seen[form.title] = true
		out = append(out, formCandidate(form, *prev, t, reply))
	}
	return out
}

// nextReply is the agent's first prose after the person's turn at i,
// before the person speaks again.
func nextReply(s *transcript.Session, i int) (transcript.Turn, bool) {
	for _, t := range s.Turns[i+1:] {
		switch {
		case t.IsAgent():
			return t, true
		case t.IsPerson():
			return transcript.Turn{}, false
		}
	}
	return transcript.Turn{}, false
}

func formCandidate(form answerForm, prev, objection, reply transcript.Turn) Candidate {
	instead := "in prose"
	if reListed.MatchString(reply.Text) {
		instead = "as a numbered list"
	}
	owned := strings.Trim(reConceded.FindString(strings.TrimSpace(reply.Text)), " \t\n*_!.,:")
	body := fmt.Sprintf("The person said %q when the agent answered with %s. The agent conceded (%q) and answered again %s.",
		clip(oneLine(objection.Text), 160), form.name, owned, instead)
	return Candidate{Kind: schema.KindPreference, Scope: schema.ScopeUser, Title: form.title, Body: body,
		Tags: []string{"preference"}, Turns: []string{prev.Ref, objection.Ref, reply.Ref},
		Rule: "person objected to the form of the agent's answer, the agent conceded and changed it", Confidence: 0.8, Time: objection.Time}
}
