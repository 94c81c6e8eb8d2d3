package extract

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// RedactionVersion identifies the redaction rules; memories record it so a
// future rule change can be applied to old captures by replaying.
const RedactionVersion = "redact/1"

// Finding is one secret found in a text.
type Finding struct {
	Rule  string `json:"rule"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Line  int    `json:"line"`
}

type rule struct {
	name string
	re   *lazyre.Regexp
	// hints are lower-case literals one of which every match contains:
	// the rule runs only on the lines holding one (Go's regexp has no
	// DFA, so running every rule over a whole transcript is slow).
	hints []string
	// multiline rules match across lines; they run from the first
	// hint's line to the end.
	multiline bool
	group     int // the capture group that is secret; 0 for the whole match
	// pick, when set, chooses the secret span from the submatches and
	// may reject the match (a placeholder, a name that is no secret).
	pick func(text string, m []int) (start, end int, ok bool)
	// lead rules start with a separator before their word (" -u").
	lead bool
	// pre, when set, rejects a start cheaply before the expression runs.
	pre func(text string, start int) bool

	once sync.Once
	anch *regexp.Regexp
}

// Redactor removes secrets from text before it reaches the journal or a
// commit.
type Redactor struct {
	rules []*rule
}

// NewRedactor returns a redactor with the built-in rules and the user's
// extra patterns (from cairn.yaml).
func NewRedactor(extra []string) (*Redactor, error) {
	r := &Redactor{rules: append([]*rule{}, builtinRules...)}
	for i, p := range extra {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("redaction rule %d %q: %w", i+1, p, err)
		}
		r.rules = append(r.rules, &rule{name: "user-rule-" + strconv.Itoa(i+1), re: lazyre.From(re)})
	}
	return r, nil
}

// Scan lists the secrets in text, without changing it.
func (r *Redactor) Scan(text string) []Finding {
	var out []Finding
	add := func(name string, start, end int) {
		out = append(out, Finding{Rule: name, Start: start, End: end})
	}
	for _, m := range privateSpanRe.FindAllStringIndex(text, -1) {
		add("private", m[0], m[1])
	}
	lower := asciiLower(text)
	for _, ru := range r.rules {
		ru.find(text, lower, func(m []int) {
			if s, e, ok := ru.span(text, m); ok {
				add(ru.name, s, e)
			}
		})
	}
	// A random-looking run is a secret only where no named rule already
	// found one: "TOKEN=ghp_..." keeps its name and reports the GitHub rule.
	named := len(out)
	for _, m := range tokenRuns(text, 32) {
		if !highEntropy(text[m[0]:m[1]]) {
			continue
		}
		covered := false
		for _, f := range out[:named] {
			if m[0] < f.End && f.Start < m[1] {
				covered = true
				break
			}
		}
		if !covered {
			add("high-entropy", m[0], m[1])
		}
	}
	out = append(out, r.wrapped(text)...)
	out = merge(out)
	line, at := 1, 0
	for i := range out {
		line += strings.Count(text[at:out[i].Start], "\n")
		at = out[i].Start
		out[i].Line = line
	}
	return out
}

// maxMatch bounds one match of a single-line rule (JWTs run to a few
// kilobytes): an attempt never reads further, so the cost of a scan stays
// linear in the text even when it is one line of megabytes.
const maxMatch = 16 << 10

// find calls fn with the submatch indexes of every match of the rule in
// text. Go's regexp has no DFA: an unanchored search costs a pass of its
// NFA over the whole text per rule. A rule with hints is instead tried,
// anchored, only where a match can start: at and before each hint
// (lower is text with ASCII lowered, for case-insensitive hints).
func (ru *rule) find(text, lower string, fn func(m []int)) {
	if len(ru.hints) == 0 || ru.multiline {
		from := 0
		if len(ru.hints) > 0 {
			from = -1
			for _, h := range ru.hints {
				if i := strings.Index(lower, h); i >= 0 && (from < 0 || i < from) {
					from = i
				}
			}
			if from < 0 {
				return
			}
			from = strings.LastIndexByte(text[:from], '\n') + 1
		}
		for _, m := range ru.re.FindAllStringSubmatchIndex(text[from:], -1) {
			fn(shift(m, from))
		}
		return
	}
	last := 0
	for _, c := range ru.starts(text, lower) {
		if c < last {
			continue // inside the previous match
		}
		end := min(len(text), c+maxMatch)
		if j := strings.IndexByte(text[c:end], '\n'); j >= 0 {
			end = c + j
		}
		m := ru.anchored().FindStringSubmatchIndex(text[c:end])
		if m == nil {
			continue
		}
		m = shift(m, c)
		// The anchored form cannot see the character before c: check
		// \b and (^|\s) with the rule itself, one character back.
		w := c
		if c > 0 && text[c-1] != '\n' {
			w = c - 1
		}
		if loc := ru.re.FindStringIndex(text[w:m[1]]); loc == nil || w+loc[0] > c {
			continue
		}
		last = m[1]
		fn(m)
	}
}

func shift(m []int, by int) []int {
	for i := range m {
		if m[i] >= 0 {
			m[i] += by
		}
	}
	return m
}

// starts lists where a match of the rule may begin, in order: at the
// start of the word holding each hint (a key's prefix, a variable's
// name, a keyword), and for rules that begin with a separator (" -u",
// "&sig=") one character before it.
func (ru *rule) starts(text, lower string) []int {
	var out []int
	for _, h := range ru.hints {
		for from := 0; ; {
			i := strings.Index(lower[from:], h)
			if i < 0 {
				break
			}
			p := from + i
			w := p
			for w > 0 && p-w < 256 && isIdentByte(text[w-1]) {
				w--
			}
			if ru.pre == nil || ru.pre(text, w) {
				out = append(out, w)
			}
			if ru.lead && w > 0 {
				out = append(out, w-1)
			}
			from = p + len(h)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// anchored is the rule's expression anchored at the start of its input.
func (ru *rule) anchored() *regexp.Regexp {
	ru.once.Do(func() { ru.anch = regexp.MustCompile(`^(?:` + ru.re.String() + `)`) })
	return ru.anch
}

// asciiLower lowers ASCII letters only, so offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// merge drops findings inside others and orders them.
func merge(fs []Finding) []Finding {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		return fs[i].End > fs[j].End
	})
	var out []Finding
	for _, f := range fs {
		if len(out) > 0 && f.Start < out[len(out)-1].End {
			if f.End > out[len(out)-1].End {
				out[len(out)-1].End = f.End
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// Redact replaces every secret with [REDACTED:rule].
func (r *Redactor) Redact(text string) (string, []Finding) {
	fs := r.Scan(text)
	if len(fs) == 0 {
		return text, nil
	}
	var b strings.Builder
	last := 0
	for _, f := range fs {
		b.WriteString(text[last:f.Start])
		b.WriteString("[REDACTED:" + f.Rule + "]")
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String(), fs
}
