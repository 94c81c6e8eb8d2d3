package main

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/schema"
)

// ShowCmd prints a memory at a revision.
type ShowCmd struct {
	Spec string `arg:"" help:"REV:URI, e.g. HEAD~2:mem://project/decisions/use-bleve or abc123:decisions/use-bleve."`
}

func (c *ShowCmd) Run(g *Globals, env *Env) error {
	rev, target, ok := splitRevURI(c.Spec)
	if !ok {
		return fmt.Errorf("%w: want REV:URI, e.g. HEAD~1:mem://project/decisions/x", errUsage)
	}
	uri, v, err := env.URI(target)
	if err != nil {
		return err
	}
	data, err := v.Show(rev, uri)
	if err != nil {
		return err
	}
	if g.JSON {
		m, err := schema.Parse(uri.RelPath(), data)
		if err != nil {
			return err
		}
		m.URI = uri
		hash, _ := v.ResolveCommit(rev)
		return env.JSON(struct {
			Rev    string         `json:"rev"`
			Commit string         `json:"commit"`
			Memory *schema.Memory `json:"memory"`
		}{rev, hash, m})
	}
	_, err = env.Stdout.Write(data)
	return err
}

// splitRevURI splits at the colon that ends the revision; the URI's own
// "mem://" colon does not count.
func splitRevURI(s string) (rev, uri string, ok bool) {
	if i := strings.Index(s, ":"+schema.Scheme); i >= 0 {
		return s[:i], s[i+1:], s[:i] != ""
	}
	rev, uri, ok = strings.Cut(s, ":")
	return rev, uri, ok && rev != "" && uri != ""
}
