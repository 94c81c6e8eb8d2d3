package vault

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// PrepareMerges registers the merge driver (driver is how git runs
// cairn's merge-driver command) in the vault's git config and makes sure
// .gitattributes (written by init since the driver exists) is in the
// vault's history, before a sync merges anything.
func (v *Vault) PrepareMerges(ctx context.Context, driver string) error {
	if err := v.EnsureMergeDriver(driver); err != nil {
		return err
	}
	if v.InHead(".gitattributes") {
		return nil
	}
	_, err := v.Update(ctx, CommitMeta{Verb: "init", Subject: "init: register the cairn merge driver", Source: "sync"}, func(tx *Tx) error {
		return tx.PutFile(".gitattributes", []byte("*.md merge=cairn\n"))
	})
	return err
}

// AuthFor picks credentials for a remote URL: a token from the
// environment or the git credential helper for HTTPS; SSH uses the agent
// (go-git's default); local paths need none.
func AuthFor(raw string) transport.AuthMethod {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil
	}
	if t := os.Getenv("CAIRN_GIT_TOKEN"); t != "" {
		return &githttp.BasicAuth{Username: "x-access-token", Password: t}
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			return &githttp.BasicAuth{Username: u.User.Username(), Password: p}
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	cmd := exec.Command("git", "credential", "fill")
	cmd.Stdin = strings.NewReader(fmt.Sprintf("protocol=%s\nhost=%s\npath=%s\n\n", u.Scheme, u.Host, strings.TrimPrefix(u.Path, "/")))
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var user, pass string
	for _, l := range bytes.Split(out, []byte("\n")) {
		if k, val, ok := strings.Cut(string(l), "="); ok {
			switch k {
			case "username":
				user = val
			case "password":
				pass = val
			}
		}
	}
	if pass == "" {
		return nil
	}
	return &githttp.BasicAuth{Username: user, Password: pass}
}
