package extract

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
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
	name  string
	re    *regexp.Regexp
	group int // the capture group that is secret; 0 for the whole match
}

// builtinRules cover provider keys, tokens, key blocks, secret-looking
// assignments and connection strings with passwords.
var builtinRules = []rule{
	{"private-key", regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)`), 0},
	{"anthropic-key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{20,}`), 0},
	{"openai-key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), 0},
	{"aws-access-key", regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`), 0},
	{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})\b`), 0},
	{"slack-token", regexp.MustCompile(`\bxox[baprs]-[A-Za-z0-9-]{10,}`), 0},
	{"gitlab-token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`), 0},
	{"google-api-key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`), 0},
	{"stripe-key", regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b`), 0},
	{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), 0},
	{"connection-string", regexp.MustCompile(`\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s@/]{3,})@`), 1},
	{"secret-assignment", regexp.MustCompile(`(?i)\b[A-Z0-9_.\-]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|CREDENTIAL)[A-Z0-9_.\-]*\s*[:=]\s*["']?([^\s"'` + "`" + `,;]{6,})`), 1},
	{"bearer-token", regexp.MustCompile(`(?i)\b(?:bearer|token)\s+([A-Za-z0-9_\-.=]{20,})`), 1},
}

var privateRe = regexp.MustCompile(`(?s)<private>.*?</private>`)

// highEntropyRe finds long runs of token characters, checked for entropy.
var highEntropyRe = regexp.MustCompile(`[A-Za-z0-9+/_\-=]{32,}`)

// Redactor removes secrets from text before it reaches the journal or a
// commit.
type Redactor struct {
	rules []rule
}

// NewRedactor returns a redactor with the built-in rules and the user's
// extra patterns (from cairn.yaml).
func NewRedactor(extra []string) (*Redactor, error) {
	r := &Redactor{rules: append([]rule{}, builtinRules...)}
	for i, p := range extra {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("redaction rule %d %q: %w", i+1, p, err)
		}
		r.rules = append(r.rules, rule{name: "user-rule-" + strconv.Itoa(i+1), re: re})
	}
	return r, nil
}

// Scan lists the secrets in text, without changing it.
func (r *Redactor) Scan(text string) []Finding {
	var out []Finding
	add := func(name string, start, end int) {
		out = append(out, Finding{Rule: name, Start: start, End: end, Line: strings.Count(text[:start], "\n") + 1})
	}
	for _, m := range privateRe.FindAllStringIndex(text, -1) {
		add("private", m[0], m[1])
	}
	for _, ru := range r.rules {
		for _, m := range ru.re.FindAllStringSubmatchIndex(text, -1) {
			s, e := m[0], m[1]
			if ru.group > 0 && len(m) > 2*ru.group+1 && m[2*ru.group] >= 0 {
				s, e = m[2*ru.group], m[2*ru.group+1]
			}
			switch ru.name {
			case "secret-assignment":
				if !secretValue(text[s:e]) {
					continue
				}
			case "connection-string", "bearer-token":
				if placeholder(text[s:e]) {
					continue
				}
			}
			add(ru.name, s, e)
		}
	}
	// A random-looking run is a secret only where no named rule already
	// found one: "TOKEN=ghp_..." keeps its name and reports the GitHub rule.
	named := len(out)
	for _, m := range highEntropyRe.FindAllStringIndex(text, -1) {
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
	return merge(out)
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

// secretValue tells a secret-looking assignment from an ordinary one:
// placeholders, variables and plain words are not secrets.
func secretValue(v string) bool {
	if placeholder(v) {
		return false
	}
	if envName.MatchString(v) {
		return false // api_key_env: ANTHROPIC_API_KEY names a variable
	}
	hasDigit, hasLetter := false, false
	for _, c := range v {
		if unicode.IsDigit(c) {
			hasDigit = true
		} else if unicode.IsLetter(c) {
			hasLetter = true
		}
	}
	// A word alone ("PASSWORD=required") is prose; a value with digits or
	// symbols, or a long one, is a secret.
	return (hasDigit && hasLetter) || len(v) >= 16 || strings.ContainsAny(v, "!@#%^&*+/")
}

// placeholder reports a value that stands for a secret without being one:
// a variable, a template, a mask.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	for _, p := range []string{"$", "{{", "<", "xxx", "***", "changeme", "redacted", "example", "placeholder", "your_", "your-", "none", "null", "true", "false", "os.getenv", "env("} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

var envName = regexp.MustCompile(`^[A-Z][A-Z_]*$`)

// highEntropy judges a long token: random-looking and mixing character
// classes. Hex digests (git hashes, sha256) and identifiers survive.
func highEntropy(s string) bool {
	if isHexString(s) || strings.Count(s, "-") >= 3 || strings.Count(s, "_") >= 3 || strings.Count(s, "/") >= 2 {
		return false // digests, uuids, identifiers, paths
	}
	var lower, upper, digit int
	freq := map[rune]int{}
	for _, c := range s {
		freq[c]++
		switch {
		case unicode.IsLower(c):
			lower++
		case unicode.IsUpper(c):
			upper++
		case unicode.IsDigit(c):
			digit++
		}
	}
	classes := 0
	for _, n := range []int{lower, upper, digit} {
		if n > 0 {
			classes++
		}
	}
	if classes < 3 {
		return false
	}
	var h float64
	n := float64(len(s))
	for _, c := range freq {
		p := float64(c) / n
		h -= p * math.Log2(p)
	}
	return h >= 4.2
}

func isHexString(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
