package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cairnmem/cairn/review"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"golang.org/x/term"
)

// ReviewCmd goes through what capture wrote.
type ReviewCmd struct {
	Next   ReviewNextCmd   `cmd:"" default:"1" hidden:"" help:"One memory at a time: keep, edit or forget."`
	List   ReviewListCmd   `cmd:"" help:"List the memories waiting for review."`
	Keep   ReviewKeepCmd   `cmd:"" help:"Keep memories (stamp them reviewed)."`
	Forget ReviewForgetCmd `cmd:"" help:"Forget memories capture should not have written."`
}

// Help explains the inbox.
func (c *ReviewCmd) Help() string {
	return `What capture wrote from agent sessions and no person has kept yet waits
here, oldest first. On a terminal, 'cairn review' shows one memory at a time:
  k  keep it (frontmatter gains reviewed: <time>)
  e  edit it in $EDITOR, then keep it
  f  forget it (removed in a commit that says why; history keeps it)
  s  skip it for now        q  stop
Every decision is a commit. With 'capture.review: required' in cairn.yaml,
context packs leave out what is still waiting. The web viewer (cairn serve)
has the same inbox.`
}

func pendingItems(env *Env) ([]review.Item, error) {
	vs, err := env.Vaults("")
	if err != nil {
		return nil, err
	}
	return review.Pending(vs...)
}

type reviewCard struct {
	URI        string   `json:"uri"`
	Kind       string   `json:"kind"`
	Title      string   `json:"title"`
	Summary    string   `json:"summary,omitempty"`
	Created    string   `json:"created"`
	Session    string   `json:"session,omitempty"`
	Rule       string   `json:"rule,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
}

func toReviewCard(m *schema.Memory) reviewCard {
	c := reviewCard{URI: m.URI.String(), Kind: string(m.Kind), Title: m.Title, Summary: m.L0(), Created: m.Created.UTC().Format("2006-01-02 15:04"), Confidence: m.Confidence}
	if m.Source != nil {
		c.Session, c.Rule = m.Source.Session, m.Source.Rule
	}
	return c
}

// ReviewListCmd lists the inbox.
type ReviewListCmd struct{}

func (c *ReviewListCmd) Run(g *Globals, env *Env) error {
	items, err := pendingItems(env)
	if err != nil {
		return err
	}
	cards := make([]reviewCard, 0, len(items))
	for _, it := range items {
		cards = append(cards, toReviewCard(it.Memory))
	}
	if g.JSON {
		return env.JSON(map[string]any{"pending": cards})
	}
	if len(cards) == 0 {
		env.Printf("Nothing to review.\n")
		return nil
	}
	for _, c := range cards {
		env.Printf("%s  %-10s %s\n    %s\n", c.Created, c.Kind, c.Title, c.URI)
	}
	env.Printf("%d memories to review: `cairn review` on a terminal, or `cairn review keep|forget URI...`.\n", len(cards))
	return nil
}

// ReviewKeepCmd keeps memories.
type ReviewKeepCmd struct {
	URIs []string `arg:"" optional:"" help:"Memories to keep."`
	All  bool     `help:"Keep everything waiting for review."`
}

func (c *ReviewKeepCmd) Run(g *Globals, env *Env) error {
	if len(c.URIs) == 0 && !c.All {
		return fmt.Errorf("%w: name the memories to keep, or --all", errUsage)
	}
	by := map[*vault.Vault][]schema.URI{}
	var order []*vault.Vault
	add := func(v *vault.Vault, u schema.URI) {
		if by[v] == nil {
			order = append(order, v)
		}
		by[v] = append(by[v], u)
	}
	if c.All {
		items, err := pendingItems(env)
		if err != nil {
			return err
		}
		for _, it := range items {
			add(it.Vault, it.Memory.URI)
		}
	}
	for _, a := range c.URIs {
		u, v, err := env.URI(a)
		if err != nil {
			return err
		}
		add(v, u)
	}
	var kept []string
	for _, v := range order {
		res, err := review.Keep(context.Background(), v, by[v], env.Meta(v, "review"), v.Now())
		if err != nil {
			return err
		}
		for _, u := range by[v] {
			kept = append(kept, u.String())
		}
		if !g.JSON {
			env.Printf("Kept %d memor%s (commit %s)\n", len(by[v]), plural(len(by[v]), "y", "ies"), short(res.Commit))
		}
	}
	if g.JSON {
		return env.JSON(map[string]any{"kept": kept})
	}
	return nil
}

// ReviewForgetCmd forgets memories.
type ReviewForgetCmd struct {
	URIs []string `arg:"" help:"Memories to forget."`
	Why  string   `short:"w" help:"Why, recorded in the commit message."`
}

func (c *ReviewForgetCmd) Run(g *Globals, env *Env) error {
	var forgot []string
	for _, a := range c.URIs {
		u, v, err := env.URI(a)
		if err != nil {
			return err
		}
		res, err := review.Forget(context.Background(), v, u, c.Why, env.Meta(v, "forget"))
		if err != nil {
			return err
		}
		forgot = append(forgot, u.String())
		if !g.JSON {
			env.Printf("Forgot %s (commit %s)\n", u, short(res.Commit))
		}
	}
	if g.JSON {
		return env.JSON(map[string]any{"forgotten": forgot})
	}
	return nil
}

// ReviewNextCmd walks the inbox one memory at a time.
type ReviewNextCmd struct{}

func (c *ReviewNextCmd) Run(g *Globals, env *Env) error {
	if g.JSON || !reviewTerminal(env) {
		return (&ReviewListCmd{}).Run(g, env)
	}
	items, err := pendingItems(env)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		env.Printf("Nothing to review.\n")
		return nil
	}
	in := bufio.NewReader(env.Stdin)
	var kept, forgot, skipped int
	for i, it := range items {
		showForReview(env, i+1, len(items), it.Memory)
		switch answer(env, in, "[k]eep  [e]dit  [f]orget  [s]kip  [q]uit? ") {
		case "k":
			if _, err := review.Keep(context.Background(), it.Vault, []schema.URI{it.Memory.URI}, env.Meta(it.Vault, "review"), it.Vault.Now()); err != nil {
				return err
			}
			kept++
		case "e":
			if err := (&EditCmd{URI: it.Memory.URI.String()}).Run(g, env, env.App()); err != nil {
				return err
			}
			if _, err := review.Keep(context.Background(), it.Vault, []schema.URI{it.Memory.URI}, env.Meta(it.Vault, "review"), it.Vault.Now()); err != nil {
				return err
			}
			kept++
		case "f":
			why := answer(env, in, "why (enter for \"not worth keeping\")? ")
			if _, err := review.Forget(context.Background(), it.Vault, it.Memory.URI, why, env.Meta(it.Vault, "forget")); err != nil {
				return err
			}
			forgot++
		case "q":
			env.Printf("Kept %d, forgot %d, skipped %d; %d still waiting.\n", kept, forgot, skipped, len(items)-i)
			return nil
		default:
			skipped++
		}
	}
	env.Printf("Kept %d, forgot %d, skipped %d.\n", kept, forgot, skipped)
	return nil
}

func showForReview(env *Env, n, total int, m *schema.Memory) {
	env.Printf("\n[%d/%d] %s  %s\n%s\n", n, total, m.Kind, m.URI, m.Title)
	meta := "captured " + m.Created.UTC().Format("2006-01-02 15:04")
	if m.Source != nil && m.Source.Rule != "" {
		meta += " because " + m.Source.Rule
	}
	if m.Confidence != nil {
		meta += fmt.Sprintf(" (confidence %.2f)", *m.Confidence)
	}
	env.Printf("%s\n\n", meta)
	body := strings.TrimSpace(m.Body)
	if lines := strings.Split(body, "\n"); len(lines) > 20 {
		body = strings.Join(lines[:20], "\n") + "\n…"
	}
	for _, l := range strings.Split(body, "\n") {
		env.Printf("  %s\n", l)
	}
	env.Printf("\n")
}

func answer(env *Env, in *bufio.Reader, prompt string) string {
	env.Printf("%s", prompt)
	line, _ := in.ReadString('\n')
	return strings.ToLower(strings.TrimSpace(line))
}

// reviewTerminal reports a person at a terminal, or CAIRN_INTERACTIVE=1
// (scripts and tests that answer the prompts on stdin).
func reviewTerminal(env *Env) bool {
	if os.Getenv("CAIRN_INTERACTIVE") == "1" {
		return true
	}
	f, ok := env.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func short(h string) string { return h[:min(8, len(h))] }
