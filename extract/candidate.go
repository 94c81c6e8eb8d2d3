package extract

import (
	"strings"
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
	// URI pins the candidate to one file: the session's own summary and
	// outcome are rewritten as the session goes on.
	URI *schema.URI `json:"uri,omitempty"`
}

// Text is what similarity is judged on.
func (c Candidate) Text() string { return c.Title + "\n" + c.Body }

// titleFrom turns a sentence into a title: trimmed, first letter upper,
// no trailing period, at most about 90 characters at a word boundary.
func titleFrom(s string) string {
	s = strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	s = strings.TrimRight(s, ".!;:,")
	if len(s) > 90 {
		cut := strings.LastIndexByte(s[:90], ' ')
		if cut < 40 {
			cut = 90
		}
		s = strings.TrimRight(s[:cut], ",;: ") + "…"
	}
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

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
