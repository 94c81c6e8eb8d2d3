package extract

import (
	"strings"
	"time"
	"unicode"

	"github.com/cairnmem/cairn/schema"
)

// Candidate is a memory an extractor proposes.
type Candidate struct {
	Kind       schema.Kind   `json:"kind"`
	Scope      schema.Scope  `json:"scope"`
	Title      string        `json:"title"`
	Summary    string        `json:"summary,omitempty"`
	Body       string        `json:"body"`
	Tags       []string      `json:"tags,omitempty"`
	Importance float64       `json:"importance,omitempty"`
	Status     schema.Status `json:"status,omitempty"`
	Gate       string        `json:"gate,omitempty"`
	Extractor  string        `json:"extractor"`
	Turns      []string      `json:"turns,omitempty"` // message ids or lines
	Tools      []string      `json:"tools,omitempty"` // tool_use ids
	// URI pins the candidate to one file: the session's own summary is
	// rewritten as the session goes on; the project's commands are one file.
	URI *schema.URI `json:"uri,omitempty"`
	// Rule names what in the session produced the candidate (its
	// evidence, with Turns and Tools); Confidence is how sure the rule is.
	// Candidates under the capture's threshold are not written.
	Rule       string  `json:"rule,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Time is when it was said or happened: the memory's date.
	Time time.Time `json:"time,omitzero"`
	// Created overrides the memory's created date (a session summary
	// starts when the session did); zero means Time.
	Created time.Time `json:"-"`
	// Pinned, Triggers and Links are what a person gives a memory they
	// remember by hand; capture never sets them.
	Pinned   bool     `json:"pinned,omitempty"`
	Triggers []string `json:"triggers,omitempty"`
	Links    []string `json:"links,omitempty"`
}

// Text is what similarity is judged on.
func (c Candidate) Text() string { return c.Title + "\n" + c.Body }

// words are the lower-case words of a text.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stop words do not make two sentences about the same subject.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if then so to of in on at by for with from as is are was were be been being it its
		this that these those i we you he she they me us our your my their do does did done not no yes can could should would will
		shall may might must have has had just also very really let lets use using used make sure always never dont don t s ll
		about into over under than too here there what which who whom when where why how all any some each every more most`) {
		stopWords[w] = true
	}
}

// subject is a sentence's content words, for matching candidates with
// memories about the same thing.
func subject(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words(s) {
		if len(w) > 1 && !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// sharedLongWords counts the content words of four or more characters
// two texts share: enough of them says they are about the same thing.
func sharedLongWords(a, b string) int {
	wb := subject(b)
	n := 0
	for w := range subject(a) {
		if len(w) >= 4 && wb[w] {
			n++
		}
	}
	return n
}

// overlap is the Jaccard index of two sets.
func overlap(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := shared(a, b)
	return float64(n) / float64(len(a)+len(b)-n)
}

func shared(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// containment is how much of the smaller set the larger one holds: one
// record is a fuller telling of the other.
func containment(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return float64(shared(a, b)) / float64(min(len(a), len(b)))
}

// bigrams are a text's adjacent word pairs, for near-duplicate detection.
func bigrams(s string) map[string]bool {
	ws := words(s)
	out := map[string]bool{}
	if len(ws) == 1 {
		out[ws[0]] = true
	}
	for i := 0; i+1 < len(ws); i++ {
		out[ws[i]+" "+ws[i+1]] = true
	}
	return out
}
