package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Questions in the shapes people ask where things live; talk about the
// work ("where did we leave off") and where in a sentence's middle are
// not such questions.
func TestWhereQuestion(t *testing.T) {
	for _, tc := range []struct {
		text, subject string
		ok            bool
	}{
		{"ok where is the generated code for that then? i ran the generator", "the generated code", true},
		{"so where is RefundIssued consumed from?", "RefundIssued", true},
		{"good, let's edit that schema first, where is it?", "the schema", true},
		{"where does the billing config live", "the billing config", true},
		{"What would be the URL for the ledger project's docs?", "the ledger project's docs", true},
		{"I closed the window, where did we leave off", "", false},
		{"Thanks. Now where are we in the rollout?", "", false},
		{"we should review where it went wrong", "", false},
		{"use a query where we filter on the fly", "", false},
		{"What is the URL for it?", "", false},
	} {
		q, ok := whereQuestion(tc.text)
		if ok != tc.ok || ok && q.subject != tc.subject {
			t.Errorf("whereQuestion(%q) = %q %v, want %q %v", tc.text, q.subject, ok, tc.subject, tc.ok)
		}
	}
}

// A where-question whose answer names, up front, a path the session's
// tools saw becomes a memory titled by what lives there; a guess, an
// answer whose path is about something else, a path nobody saw, and a
// pronoun nothing names stay silent.
func TestExtractWhere(t *testing.T) {
	const cwd = "/src/shop"
	person := func(text string) transcript.Turn {
		return transcript.Turn{Ref: "p", Speaker: transcript.Person, Form: transcript.Said, Text: text}
	}
	agent := func(text string) transcript.Turn {
		return transcript.Turn{Ref: "a", Speaker: transcript.Agent, Text: text}
	}
	find := func(out string) transcript.Turn {
		return transcript.Turn{Speaker: transcript.Agent, Call: &transcript.Call{Tool: "Bash", Command: "find " + cwd + " -name '*.pb.go'", Output: out, Status: transcript.OK}}
	}
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		title string // "" for silence
		path  string
	}{
		{"named by the answer", []transcript.Turn{
			person("where is the generated code for that?"),
			agent("None under the shared folder. Let me look elsewhere."),
			find(cwd + "/services/billing/pkg/gen/v1/billing/billing.pb.go"),
			agent("It's local to the service: `services/billing/pkg/gen/v1/billing/`. That's where `billing.pb.go` and the client stub live."),
		}, "Where billing.pb.go and the client stub live", "services/billing/pkg/gen/v1/billing"},
		{"generic subject named by its path", []transcript.Turn{
			person("where is the model?"),
			find(cwd + "/services/billing/internal/models/models.go"),
			agent("`" + cwd + "/services/billing/internal/models/models.go` — lines 10-22."),
		}, "Where the billing model lives", "services/billing/internal/models/models.go"},
		{"a guess", []transcript.Turn{
			person("where is the model?"),
			find(cwd + "/services/billing/internal/models/models.go"),
			agent("It is probably in `services/billing/internal/models/models.go`."),
		}, "", ""},
		{"the path answers something else", []transcript.Turn{
			person("so where is HandleRefund called from?"),
			find(cwd + "/services/billing/cmd/billing/api.go"),
			agent("`HandleRefund` is registered by the consumer router at line 80.\n\nThe producer lives in `services/billing/cmd/billing/api.go`."),
		}, "", ""},
		{"a path the session never saw", []transcript.Turn{
			person("where is the RefundPolicy defined?"),
			agent("`services/billing/policy/refund.go`"),
		}, "", ""},
		{"paths asked for again", []transcript.Turn{
			person("where is the RefundPolicy defined?"),
			agent("In the policy package, next to the fee rules."),
			person("give me file paths"),
			find(cwd + "/services/billing/policy/refund.go"),
			agent("`services/billing/policy/refund.go`"),
		}, "Where the RefundPolicy is defined", "services/billing/policy/refund.go"},
		{"a new request is not asking again", []transcript.Turn{
			person("where is the RefundPolicy defined?"),
			agent("In the policy package, next to the fee rules."),
			person("ok now rename the path helper"),
			find(cwd + "/services/billing/policy/paths.go"),
			agent("Renamed it in `services/billing/policy/paths.go`."),
		}, "", ""},
		{"a pronoun nothing names", []transcript.Turn{
			person("where is that?"),
			find(cwd + "/services/billing/internal/graph/resolvers.go"),
			agent("`services/billing/internal/graph/resolvers.go:100-110`."),
		}, "", ""},
		{"the agent's own exploring", []transcript.Turn{
			person("add a refund endpoint"),
			find(cwd + "/services/billing/internal/graph/resolvers.go"),
			agent("Where is the resolver? `services/billing/internal/graph/resolvers.go`."),
		}, "", ""},
	} {
		s := &transcript.Session{Cwd: cwd, Turns: tc.turns}
		got := extractWhere(s)
		if tc.title == "" {
			if len(got) != 0 {
				t.Errorf("%s: want silence, got %q", tc.name, got[0].Title)
			}
			continue
		}
		if len(got) != 1 || got[0].Title != tc.title || !strings.Contains(got[0].Body, "`"+tc.path+"`") {
			t.Errorf("%s: got %+v, want %q with %s", tc.name, got, tc.title, tc.path)
		}
	}
}
