package extract

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ErrSecret marks a write refused because it holds a secret.
var ErrSecret = errors.New("contains a secret")

// SecretError lists where the secrets in one file are.
type SecretError struct {
	File     string
	Findings []Finding
}

func (e *SecretError) Error() string {
	var b strings.Builder
	for i, f := range e.Findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d: %s (%s); remove it, or refer to where it lives (an env var name) instead", e.File, f.Line, ErrSecret, f.Rule)
	}
	return b.String()
}

func (e *SecretError) Unwrap() error { return ErrSecret }

// Guard returns a vault guard that refuses any file holding a secret, so
// nothing reaches history unredacted whichever path wrote it. display maps
// a vault-relative path to the name shown to the user.
func (r *Redactor) Guard(display func(rel string) string) func(rel string, data []byte) error {
	return func(rel string, data []byte) error {
		fs := r.Scan(string(data))
		if len(fs) == 0 {
			return nil
		}
		name := rel
		if display != nil {
			name = display(rel)
		}
		return &SecretError{File: name, Findings: fs}
	}
}

// GuardVault installs the secret guard on v, with v's own redaction rules,
// and makes the redactor's Clean the sanitizer of v's commit messages.
// It returns the redactor so callers can redact what they are about to
// write instead of having it refused.
func GuardVault(v *vault.Vault) (*Redactor, error) {
	red, err := NewRedactor(v.Config.Capture.Redact)
	if err != nil {
		return nil, fmt.Errorf("%s: capture.redact: %w", v.Root, err)
	}
	v.Guard = red.Guard(v.Display)
	v.Clean = red.Clean
	return red, nil
}

// Clean is the one sanitizer for text bound for a file or a commit that
// is not a memory the guard can refuse: commit messages and trailers
// (cairn commit -m, forget --why, the why of MCP and HTTP), session ids,
// journal fields, logs. It strips control bytes (NUL makes git objects
// fail fsck; escape sequences reach terminals) and redacts secrets.
func (r *Redactor) Clean(s string) string {
	if r == nil {
		r = defaultRedactor()
	}
	s = schema.CleanText(s)
	out, _ := r.Redact(s)
	return out
}

// CleanLine is Clean for one-line fields (ids, names): line breaks and
// runs of spaces become one space.
func (r *Redactor) CleanLine(s string) string {
	return strings.Join(strings.Fields(r.Clean(s)), " ")
}

var defaultRedactor = sync.OnceValue(func() *Redactor {
	r, _ := NewRedactor(nil)
	return r
})

// Sanitize cleans s with the built-in rules, for text written where no
// vault's own rules apply (the hook log before a vault is found).
func Sanitize(s string) string { return defaultRedactor().Clean(s) }

// SanitizeLine is Sanitize for one-line fields such as session ids.
func SanitizeLine(s string) string { return defaultRedactor().CleanLine(s) }
