package extract

import (
	"encoding/base64"
	"math"
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// builtinRules cover provider keys, tokens, key blocks, secret-looking
// assignments and connection strings with passwords. Key prefixes also
// match with a capital first letter: extractors capitalize the titles
// they make from a sentence ("Sk-ant-...", "Redis://user:pass@...").
var builtinRules = []*rule{
	{name: "private-key", hints: []string{"-----begin "}, multiline: true, re: lazyre.New(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)`)},
	{name: "anthropic-key", hints: []string{"sk-ant-"}, re: lazyre.New(`\b[sS]k-ant-[A-Za-z0-9_\-]{20,}`), pick: unmasked(0, "sk-ant-", "Sk-ant-")},
	{name: "openai-key", hints: []string{"sk-"}, re: lazyre.New(`\b[sS]k-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), pick: unmasked(0, "sk-", "Sk-")},
	{name: "aws-access-key", hints: []string{"akia", "asia"}, re: lazyre.New(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`), pick: unmasked(0, "")},
	{name: "github-token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, re: lazyre.New(`\b(?:[gG]h[pousr]_[A-Za-z0-9]{36,}|[gG]ithub_pat_[A-Za-z0-9_]{50,})\b`), pick: unmasked(0, "")},
	{name: "slack-token", hints: []string{"xox"}, re: lazyre.New(`\b[xX]ox[baprse]-[A-Za-z0-9-]{10,}`), pick: unmasked(0, "xox", "Xox")},
	{name: "slack-webhook", hints: []string{"hooks.slack.com/"}, re: lazyre.New(`\bhooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/\-]{16,})`), group: 1, pick: unmasked(1, "")},
	{name: "discord-webhook", hints: []string{"discord"}, re: lazyre.New(`\bdiscord(?:app)?\.com/api/webhooks/[0-9]+/([A-Za-z0-9_\-]{20,})`), group: 1, pick: unmasked(1, "")},
	{name: "gitlab-token", hints: []string{"glpat-"}, re: lazyre.New(`\b[gG]lpat-[A-Za-z0-9_\-]{20,}`), pick: unmasked(0, "glpat-", "Glpat-")},
	{name: "google-api-key", hints: []string{"aiza"}, re: lazyre.New(`\bAIza[0-9A-Za-z_\-]{35}\b`), pick: unmasked(0, "AIza")},
	{name: "stripe-key", hints: []string{"_live_", "_test_"}, re: lazyre.New(`\b(?:[sS]k|[rR]k)_(?:live|test)_[A-Za-z0-9]{16,}\b`), pick: unmasked(0, "")},
	{name: "jwt", hints: []string{"eyj"}, re: lazyre.New(`\b[eE]yJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)},
	{name: "connection-string", hints: []string{"://"}, re: lazyre.New(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]+:([^\s@/]{3,})@`), group: 1, pick: notPlaceholder(1)},
	{name: "azure-key", hints: []string{"key"}, re: lazyre.New(`(?i)\b(?:Account|SharedAccess)Key\s*=\s*([A-Za-z0-9+/%]{20,}={0,2})`), group: 1, pick: notPlaceholder(1)},
	{name: "sas-signature", hints: []string{"sig="}, lead: true, re: lazyre.New(`[?&]sig=([A-Za-z0-9%+/]{20,}(?:=|%3D){0,2})`), group: 1, pick: notPlaceholder(1)},
	// "Authorization: Basic dXNl...", "Bearer ...", "token ...".
	{name: "basic-auth", hints: []string{"basic"}, re: lazyre.New(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?:[^A-Za-z0-9+/=]|$)`), group: 1, pick: basicAuth},
	{name: "bearer-token", hints: []string{"bearer", "token"}, re: lazyre.New(`(?i)\b(?:bearer|token)\s+([A-Za-z0-9_\-.=~+/]{20,})`), group: 1, pick: notPlaceholder(1)},
	// Passwords on command lines: curl -u user:pass, sshpass -p,
	// mysql -pPASS, --password=..., wget --http-password ...
	{name: "cli-password", hints: []string{"-u", "--user", "--proxy-user"}, lead: true, re: lazyre.New(`(?:^|\s)(?:-u|--user|--proxy-user)[ =]?["']?[^\s:"'@]+:([^\s"'@]{3,})`), group: 1, pick: notPlaceholder(1)},
	{name: "cli-password", hints: []string{"sshpass"}, re: lazyre.New(`\b(?i:sshpass)\s+-p\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))`), group: 1, pick: firstGroup(1, placeholder)},
	{name: "cli-password", hints: []string{"password"}, lead: true, re: lazyre.New(`(?:^|\s)--(?:[a-z]+-)?password[ =](?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'-][^\s"']*))`), group: 1, pick: firstGroup(1, placeholder)},
	{name: "cli-password", hints: []string{"mysql", "mariadb"}, re: lazyre.New(`\b(?i:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']{3,}))`), group: 1, pick: firstGroup(1, placeholder)},
	// NAME=value, NAME: value, "name": "value" where NAME says it is a
	// secret; values in quotes may hold spaces.
	{name: "secret-assignment", hints: []string{"secret", "token", "pass", "pwd", "key", "auth", "credential"}, pre: assignsAt, re: lazyre.New(`(?i)([A-Za-z0-9_.\-]*(?:secret|token|passw(?:or)?d|pwd|pass|passphrase|key|auth|credentials?)[A-Za-z0-9_.\-]*)["']?\s*[:=]\s*(?:"([^"\n]{6,})"|'([^'\n]{6,})'|([^\s"'` + "`" + `,;]{6,}))`), pick: assignment},
	// Prose: "the password is hunter2pass", "my token was ...".
	{name: "secret-prose", hints: []string{"password", "passphrase", "passcode", "pin code", "secret key", "api key", "token"}, re: lazyre.New(`(?i)\b(?:password|passphrase|passcode|pin code|secret key|api key|token)\s+(?:is|was|=|:)\s+["'“]?([^\s"'”]{6,})`), group: 1, pick: firstGroup(1, func(v string) bool { return !secretValue(v) })},
}

func (ru *rule) span(text string, m []int) (int, int, bool) {
	if ru.pick != nil {
		return ru.pick(text, m)
	}
	s, e := m[0], m[1]
	if ru.group > 0 && len(m) > 2*ru.group+1 && m[2*ru.group] >= 0 {
		s, e = m[2*ru.group], m[2*ru.group+1]
	}
	return s, e, true
}

// firstGroup picks the first group from g on that took part in the
// match, unless reject says its value is no secret.
func firstGroup(g int, reject func(string) bool) func(string, []int) (int, int, bool) {
	return func(text string, m []int) (int, int, bool) {
		for i := g; 2*i+1 < len(m); i++ {
			if m[2*i] >= 0 {
				s, e := m[2*i], m[2*i+1]
				return s, e, !reject(text[s:e])
			}
		}
		return 0, 0, false
	}
}

func notPlaceholder(g int) func(string, []int) (int, int, bool) { return firstGroup(g, placeholder) }

// unmasked rejects documentation masks of a key format: sk-xxxxxxxx...,
// AKIAXXXXXXXXXXXXXXXX, xoxb-your-token-here.
func unmasked(g int, prefixes ...string) func(string, []int) (int, int, bool) {
	return firstGroup(g, func(v string) bool {
		for _, p := range prefixes {
			v = strings.TrimPrefix(v, p)
		}
		return masked(v)
	})
}

// masked reports a value that only shows the shape of a secret: mostly
// one repeated character, or a template word.
func masked(v string) bool {
	if placeholder(v) && !strings.HasPrefix(v, "$") {
		return true
	}
	freq := map[rune]int{}
	most, n := 0, 0
	for _, c := range v {
		if c == '-' || c == '_' {
			continue
		}
		n++
		freq[c]++
		most = max(most, freq[c])
	}
	return n > 0 && most*2 >= n
}

// basicAuth takes the credentials of "Basic <base64>" only when they
// decode to user:password, so prose like "basic configuration" passes.
func basicAuth(text string, m []int) (int, int, bool) {
	s, e := m[2], m[3]
	v := text[s:e]
	dec, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		dec, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil || !strings.Contains(string(dec), ":") || masked(v) {
		return 0, 0, false
	}
	return s, e, true
}

// assignsAt reports whether the word at start is followed by "=" or ":"
// (after an optional quote and spaces), as a name being assigned is.
func assignsAt(text string, start int) bool {
	i := start
	for i < len(text) && isIdentByte(text[i]) {
		i++
	}
	if i < len(text) && (text[i] == '"' || text[i] == '\'') {
		i++
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && (text[i] == '=' || text[i] == ':')
}

// assignment accepts NAME=value when a word of NAME names a secret and
// value looks like one.
func assignment(text string, m []int) (int, int, bool) {
	if !secretName(text[m[2]:m[3]]) {
		return 0, 0, false
	}
	for i := 2; 2*i+1 < len(m); i++ {
		if m[2*i] >= 0 {
			s, e := m[2*i], m[2*i+1]
			return s, e, secretValue(text[s:e])
		}
	}
	return 0, 0, false
}

// secretWords are the words of a variable or field name that say its
// value is a secret.
var secretWords = map[string]bool{"secret": true, "secrets": true, "token": true, "password": true, "passwd": true, "pwd": true, "pass": true,
	"passphrase": true, "key": true, "apikey": true, "auth": true, "credential": true, "credentials": true, "privatekey": true}

// notSecretKeys name keys that are not secrets: "sort_key", "public key".
var notSecretKeys = map[string]bool{"public": true, "primary": true, "foreign": true, "sort": true, "partition": true, "cache": true,
	"hash": true, "map": true, "routing": true, "lookup": true, "idempotency": true, "range": true, "unique": true, "shard": true,
	"group": true, "row": true, "composite": true, "dedup": true, "index": true, "pub": true, "tokens": true, "max": true, "min": true}

// secretName splits a name into words (snake, kebab, dotted, camel case)
// and reports whether one of them names a secret.
func secretName(name string) bool {
	words := nameWords(name)
	found := false
	for i, w := range words {
		if !secretWords[w] {
			continue
		}
		if (w == "key" || w == "token" || w == "auth") && i > 0 && notSecretKeys[words[i-1]] {
			continue
		}
		if w == "key" && i+1 < len(words) && (words[i+1] == "name" || words[i+1] == "file" || words[i+1] == "path" || words[i+1] == "env") {
			continue // key_file, key_name: where the key is, not the key
		}
		found = true
	}
	return found
}

func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, c := range rs {
		switch {
		case c == '_' || c == '-' || c == '.':
			flush()
		case unicode.IsUpper(c) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
	}
	flush()
	return words
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
// a variable ($VAR, ${VAR}, $(cmd)), a template, a mask. A "$" inside a
// value (pa$$w0rd) does not make it a variable.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	if variableRef.MatchString(v) || strings.Contains(v, "${") || strings.Contains(v, "$(") {
		return true
	}
	for _, p := range []string{"{{", "<", "xxx", "***", "...", "changeme", "redacted", "example", "placeholder", "your_", "your-", "none", "null", "true", "false", "os.getenv", "env("} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// variableRef is a value that is a shell or template variable.
var variableRef = lazyre.New(`^\$[A-Za-z_][A-Za-z0-9_]*$|^%[A-Za-z_][A-Za-z0-9_]*%$|^\$env:`)

var envName = lazyre.New(`^[A-Z][A-Z_]*$`)

// agentID matches the ids agents and their APIs put in transcripts:
// toolu_01..., toolu_bdrk_01... (Bedrock), toolu_vrtx_... (Vertex),
// srvtoolu_, msg_, req_, call_, fc_, resp_, chatcmpl-, run_, thread_, ...
var agentID = lazyre.New(`^(?:srvtoolu|toolu|msg|req|call|fc|rs|resp|run|thread|asst|step|file|batch|evt|compl)_(?:bdrk_|vrtx_)?[A-Za-z0-9]+$|^chatcmpl-[A-Za-z0-9]+$`)

// highEntropy judges a long token: random-looking and mixing character
// classes. Hex digests (git hashes, sha256), identifiers, paths and the
// ids agents give tool calls, messages and requests survive.
func highEntropy(s string) bool {
	if isHexString(s) || strings.Count(s, "-") >= 3 || strings.Count(s, "_") >= 3 || agentID.MatchString(s) {
		return false // digests, uuids, identifiers, tool and message ids
	}
	if strings.Count(s, "/") >= 2 && !strings.ContainsAny(s, "+=") {
		return false // a path; base64 with slashes has + or = padding
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

// tokenRuns finds the runs of at least min token characters
// ([A-Za-z0-9+/_=-]), the candidates for high-entropy secrets.
func tokenRuns(text string, min int) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		tok := false
		if i < len(text) {
			c := text[i]
			tok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' || c == '='
		}
		switch {
		case tok && start < 0:
			start = i
		case !tok && start >= 0:
			if i-start >= min {
				out = append(out, [2]int{start, i})
			}
			start = -1
		}
	}
	return out
}
