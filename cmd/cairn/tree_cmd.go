package main

import (
	"fmt"
	"io"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// TreeCmd prints the memory tree.
type TreeCmd struct {
	URI string `arg:"" optional:"" help:"Subtree to show: mem://project/decisions, decisions/, mem://user."`
}

func (c *TreeCmd) Run(g *Globals, env *Env) error {
	scope, path, err := schema.ParsePrefix(c.URI)
	if err != nil {
		return err
	}
	if path != "" && path[len(path)-1] != '/' {
		path += "/"
	}
	vs, err := env.Vaults(scope)
	if err != nil {
		return err
	}
	var roots []*vault.TreeNode
	for _, v := range vs {
		es, err := v.List(vault.ListOptions{Prefix: path, Parse: true})
		if err != nil {
			return err
		}
		roots = append(roots, vault.BuildTree(v.Scope, path, es))
	}
	if g.JSON {
		return env.JSON(roots)
	}
	for i, r := range roots {
		if i > 0 {
			fmt.Fprintln(env.Stdout)
		}
		fmt.Fprintf(env.Stdout, "%s  (%d)\n", r.URI, r.Count)
		printTree(env.Stdout, r.Children, "")
	}
	return nil
}

func printTree(w io.Writer, nodes []*vault.TreeNode, indent string) {
	for i, n := range nodes {
		branch, next := "├── ", "│   "
		if i == len(nodes)-1 {
			branch, next = "└── ", "    "
		}
		switch {
		case n.Children != nil:
			fmt.Fprintf(w, "%s%s%s/  (%d)\n", indent, branch, n.Name, n.Count)
			printTree(w, n.Children, indent+next)
		case n.Error != "":
			fmt.Fprintf(w, "%s%s%s  INVALID: %s\n", indent, branch, n.Name, firstLine(n.Error))
		default:
			status := ""
			if n.Status != string(schema.StatusActive) {
				status = " [" + n.Status + "]"
			}
			fmt.Fprintf(w, "%s%s%s  %s%s — %s\n", indent, branch, n.Name, n.Kind, status, n.Summary)
		}
	}
}
