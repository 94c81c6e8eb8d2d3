package extract

import (
	"errors"
	"fmt"
	"github.com/cairnmem/cairn/vault"
	"strings"
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

// GuardVault installs the secret guard on v, with v's own redaction rules.
// It returns the redactor so callers can redact what they are about to
// write instead of having it refused.
func GuardVault(v *vault.Vault) (*Redactor, error) {
	red, err := NewRedactor(v.Config.Capture.Redact)
	if err != nil {
		return nil, fmt.Errorf("%s: capture.redact: %w", v.Root, err)
	}
	v.Guard = red.Guard(v.Display)
	return red, nil
}
