package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"golang.org/x/term"
)

// PurgeCmd removes content from the whole history.
type PurgeCmd struct {
	URI    string `arg:"" optional:"" help:"A memory to remove from every commit."`
	Secret string `help:"A regular expression to replace with [PURGED] in every file version, commit message and the journal." placeholder:"PATTERN"`
	Yes    bool   `help:"Do it without asking (scripts)."`
	Scope  string `help:"Vault when purging a pattern: project or user." enum:"project,user" default:"project"`
}

// Help warns.
func (c *PurgeCmd) Help() string {
	return `Rewrites the vault's entire history so the memory or the text is gone from
every commit: use it for a leaked secret or something that must not be kept.
'cairn forget' is the normal way to remove a memory (history keeps it).

The old history is kept under refs/cairn/backup/purge-<time> until you delete
it. Every clone and remote still holds the old history: force-push the
rewritten branch and have everyone re-clone (the command prints how).`
}

func (c *PurgeCmd) Run(g *Globals, env *Env) error {
	if (c.URI == "") == (c.Secret == "") {
		return fmt.Errorf("%w: give a memory URI or --secret PATTERN (one of them)", errUsage)
	}
	var v *vault.Vault
	var o vault.PurgeOptions
	what := ""
	if c.URI != "" {
		u, vv, err := env.URI(c.URI)
		if err != nil {
			return err
		}
		v, what = vv, u.String()
		o.Paths = []string{u.RelPath()}
	} else {
		re, err := regexp.Compile(c.Secret)
		if err != nil {
			return fmt.Errorf("%w: --secret: %v", errUsage, err)
		}
		if re.MatchString("") {
			return fmt.Errorf("%w: --secret %q matches empty text", errUsage, c.Secret)
		}
		if v, err = env.VaultFor(schema.Scope(c.Scope)); err != nil {
			return err
		}
		o.Pattern, what = re, "text matching "+c.Secret
	}
	if !c.Yes {
		fmt.Fprintf(env.Stderr, "PURGE rewrites every commit of %s to remove %s.\nThis cannot be undone except from the backup ref it leaves.\n", v.Root, what)
		f, ok := env.Stdin.(*os.File)
		if !ok || !term.IsTerminal(int(f.Fd())) {
			return fmt.Errorf("%w: not confirmed; run again with --yes", errAborted)
		}
		fmt.Fprintf(env.Stderr, "Type PURGE to continue: ")
		line, _ := bufio.NewReader(f).ReadString('\n')
		if strings.TrimSpace(line) != "PURGE" {
			return fmt.Errorf("%w: not confirmed", errAborted)
		}
	}
	rep, err := v.Purge(context.Background(), o)
	if err != nil {
		return err
	}
	// The cache was built from the old content: rebuild it.
	if rep.ChangedAny {
		if ix, err := index.Open(v, env.indexOptions(v)); err == nil {
			_ = ix.Rebuild(context.Background(), "purge")
		}
	}
	if g.JSON {
		return env.JSON(rep)
	}
	if !rep.ChangedAny {
		env.Printf("Nothing to purge: %s appears nowhere in the history.\n", what)
		return nil
	}
	env.Printf("Purged %s: %d commit(s) rewritten, %d file version(s) and %d message(s) changed, %d work-tree file(s).\n",
		what, rep.Commits, rep.Blobs, rep.Messages, rep.WorkFiles)
	env.Printf("Old history kept at %s (%.8s). When you are sure:\n  git -C %s update-ref -d %s && git -C %s gc --prune=now\n",
		rep.Backup, rep.OldHead, v.Root, rep.Backup, v.Root)
	env.Printf("Clones and remotes still hold the old history:\n  git -C %s push --force <remote> %s:<branch>   (the memory branch, e.g. cairn/memory)\n  then everyone re-clones, or runs: git -C .memory fetch && git -C .memory reset --hard <remote>/<branch>\n",
		v.Root, rep.Branch)
	return nil
}
