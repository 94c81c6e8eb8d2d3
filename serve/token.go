package serve

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/internal/atomicfile"
	"github.com/cairnmem/cairn/vault"
)

// tokenFile holds a vault's API token inside its git directory: never
// committed, never in the work tree, readable by its owner only.
const tokenFile = "cairn-serve-token"

// Token returns the vault's API token, creating it on first use.
func Token(v *vault.Vault) (string, error) {
	path := filepath.Join(v.GitDir, tokenFile)
	if data, err := os.ReadFile(path); err == nil {
		if t := strings.TrimSpace(string(data)); len(t) >= 32 {
			return t, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	t := hex.EncodeToString(b)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(t+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write the API token: %w", err)
	}
	if err := atomicfile.Rename(tmp, path); err != nil {
		return "", err
	}
	return t, nil
}

// tokenOK compares in constant time.
func tokenOK(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
