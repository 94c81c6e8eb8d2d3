package main

import (
	"io"
	"slices"

	"github.com/alecthomas/kong"
)

// Agents run `cairn hook ...` several times a turn and `cairn search` often;
// for them, kong's model of the whole command tree (reflection over every
// command, flag and help string of forty commands, a regular expression
// run over each) cost more than the hook's own work: about 10 ms against
// 0.8 ms for a tree of that one command. These trees hold the command as
// CLI declares it (a test keeps the tags equal) and parse its arguments
// the same way.
type hookTree struct {
	Globals
	Hook HookCmd `cmd:"" help:"Handle an agent hook event (agents run this)."`
}

type searchTree struct {
	Globals
	Search SearchCmd `cmd:"" help:"Search memories in both vaults (full text + vectors)."`
}

// parseFast parses args with the one-command tree of args[0], when it has
// one. Help, and anything the small tree rejects, is left to the whole
// tree (nil context), so usage messages and help are the CLI's own.
func parseFast(args []string, stdout, stderr io.Writer) (*kong.Context, *Globals) {
	flags := args
	if i := slices.Index(args, "--"); i >= 0 {
		flags = args[:i] // after "--", "-h" is a word to search for
	}
	if len(args) == 0 || slices.ContainsFunc(flags, isHelpFlag) {
		return nil, nil
	}
	var tree any
	var g *Globals
	switch args[0] {
	case "hook":
		t := &hookTree{}
		tree, g = t, &t.Globals
	case "search":
		t := &searchTree{}
		tree, g = t, &t.Globals
	default:
		return nil, nil
	}
	parser, err := newParser(tree, stdout, stderr)
	if err != nil {
		return nil, nil
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		return nil, nil
	}
	return kctx, g
}

func isHelpFlag(a string) bool { return a == "-h" || a == "--help" }
