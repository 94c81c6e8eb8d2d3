// Command cairn is persistent memory for AI coding agents: markdown files in
// git, a derived search index, and hooks that hand agents what they need.
package main

import (
	"errors"
	"fmt"
	"github.com/cairnmem/cairn/app"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/alecthomas/kong"
)

// CLI is the command tree; each command lives in its own *_cmd.go file.
type CLI struct {
	Globals

	Init        InitCmd        `cmd:"" help:"Create a vault: .memory/ in this project, or the user vault with --user."`
	Remember    RememberCmd    `cmd:"" help:"Write a new memory from flags (body from --body or stdin)."`
	New         NewCmd         `cmd:"" help:"Write a new memory in $EDITOR from the kind's template."`
	Get         GetCmd         `cmd:"" help:"Print a memory (frontmatter and body), or one tier of it."`
	Ls          LsCmd          `cmd:"" help:"List memories, optionally under a URI prefix."`
	Tree        TreeCmd        `cmd:"" help:"Show the memory tree with kinds and summaries."`
	Edit        EditCmd        `cmd:"" help:"Edit a memory in $EDITOR; it is validated and committed on save."`
	Forget      ForgetCmd      `cmd:"" help:"Remove a memory (committed; recoverable from history)."`
	Commit      CommitCmd      `cmd:"" help:"Validate and commit memories edited outside cairn."`
	Log         LogCmd         `cmd:"" help:"Show the history of the vault or of one memory, with session trailers."`
	Blame       BlameCmd       `cmd:"" help:"Show which commit and agent session last changed each line of a memory."`
	Diff        DiffCmd        `cmd:"" help:"Show changes: uncommitted edits, or between revisions."`
	Show        ShowCmd        `cmd:"" help:"Print a memory as it was at a revision: cairn show REV:URI."`
	Search      SearchCmd      `cmd:"" help:"Search memories in both vaults (full text + vectors)."`
	Context     ContextCmd     `cmd:"" help:"Build the context pack an agent gets: obligatory items, last session, rules, what is relevant."`
	Related     RelatedCmd     `cmd:"" help:"List memories linked to a memory, or sharing its tags."`
	Reindex     ReindexCmd     `cmd:"" help:"Rebuild the search cache from the memory files."`
	Index       IndexCmd       `cmd:"" help:"Inspect the search cache."`
	Doctor      DoctorCmd      `cmd:"" help:"Check the vault and explain how to fix what is wrong."`
	Backfill    BackfillCmd    `cmd:"" help:"Learn from this project's past Claude Code and Codex sessions, oldest first."`
	Review      ReviewCmd      `cmd:"" help:"Go through what capture wrote: keep, edit or forget, one memory at a time."`
	Extract     ExtractCmd     `cmd:"" help:"Learn memories from a transcript, or replay the journal."`
	Install     InstallCmd     `cmd:"" help:"Set up an agent's hooks and MCP server (claude, codex)."`
	Uninstall   UninstallCmd   `cmd:"" help:"Remove exactly what install added."`
	Hook        HookCmd        `cmd:"" help:"Handle an agent hook event (agents run this)."`
	Mcp         McpCmd         `cmd:"" name:"mcp" help:"Run the MCP server on stdio (MCP clients run this)."`
	Serve       ServeCmd       `cmd:"" help:"Serve the JSON API and the web viewer on 127.0.0.1."`
	Sync        SyncCmd        `cmd:"" help:"Share the vault through a git remote: fetch, merge (no conflict markers), push."`
	Remote      RemoteCmd      `cmd:"" help:"Add or list the vault's git remotes."`
	Stale       StaleCmd       `cmd:"" help:"List memories that name project files changed since they were written."`
	Gc          GcCmd          `cmd:"" help:"Archive faded memories; with --cache, compact the cache and journal."`
	Consolidate ConsolidateCmd `cmd:"" help:"Fold near-duplicate memories together by kind; promote preferences shared by 3+ projects."`
	Purge       PurgeCmd       `cmd:"" help:"Rewrite history to remove a memory or a secret everywhere (with a backup ref)."`
	Export      ExportCmd      `cmd:"" help:"Write every memory out: JSONL or a zip of the markdown files."`
	Import      ImportCmd      `cmd:"" help:"Bring memories in: cairn exports, claude-mem, basic-memory/Obsidian, Cline memory banks."`
	MergeDriver MergeDriverCmd `cmd:"" name:"merge-driver" help:"Git merge driver for memory files (git runs this)."`
	Bench       BenchCmd       `cmd:"" help:"Measure cairn on synthetic or benchmark data."`
	Version     VersionCmd     `cmd:"" help:"Print the cairn version."`
}

const description = `Persistent memory for AI coding agents, as plain markdown files in git.

Memories live in .memory/ (project) and the user vault (--user-vault), one file
per memory, addressed by URIs such as mem://project/decisions/use-bleve.
Every change is a git commit; edit files by hand any time and run
'cairn commit'.

Exit codes: 0 ok, 1 check failed, 2 usage error, 3 not a vault,
4 invalid memory, 5 vault locked, 6 not found, 10 internal error.`

func main() {
	// A cairn process lives for milliseconds (hooks, searches): collecting
	// garbage less often is time saved. Long-running servers reset it.
	// A soft memory limit keeps that from growing the heap without bound
	// when a process does heavy work (a rebuild, a sync of many edits).
	// GOGC and GOMEMLIMIT, when set, win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
	// CAIRN_CPUPROFILE=file writes a CPU profile of the run, for finding
	// where a slow hook or search spends its time.
	if path := os.Getenv("CAIRN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			_ = pprof.StartCPUProfile(f)
			code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// kongExit carries kong's exit requests (after --help) out of the parser.
type kongExit int

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(kongExit); ok {
				code = int(e)
				return
			}
			panic(r)
		}
	}()
	kctx, g := parseFast(args, stdout, stderr)
	if kctx == nil {
		var cli CLI
		parser, err := newParser(&cli, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "cairn: internal error: %v\n", err)
			return ExitInternal
		}
		kctx, err = parser.Parse(args)
		if err != nil && len(args) > 0 && args[0] == "hook" {
			// A hook must never exit 2: Claude Code reads it as "block".
			fmt.Fprintf(stderr, "cairn: %v\n", err)
			return ExitOK
		}
		if err != nil {
			fmt.Fprintf(stderr, "cairn: %v\n", err)
			if pe := (*kong.ParseError)(nil); errors.As(err, &pe) && pe.Context != nil && pe.Context.Selected() != nil {
				fmt.Fprintf(stderr, "Run 'cairn %s --help' for usage.\n", pe.Context.Selected().Path())
			} else {
				fmt.Fprintln(stderr, "Run 'cairn --help' for usage.")
			}
			return ExitUsage
		}
		g = &cli.Globals
	}
	if cmd := strings.Fields(kctx.Command()); len(cmd) > 0 && !rawOutput[cmd[0]] && !g.JSON {
		stdout = controlSafe{w: stdout}
	}
	env := newEnv(g, stdin, stdout, stderr)
	// Commands ask for the App by type (zk's container): it opens nothing
	// until a use case needs it.
	if err := kctx.BindSingletonProvider(func() (*app.App, error) { return env.App(), nil }); err != nil {
		return report(stderr, err)
	}
	if err := kctx.Run(g, env); err != nil {
		return report(stderr, err)
	}
	return ExitOK
}

// newParser builds kong's model of a command tree.
func newParser(tree any, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(tree,
		kong.Name("cairn"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(kongExit(c)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, Summary: true}),
	)
}

// report prints err once, each line prefixed, and returns its exit code.
func report(stderr io.Writer, err error) int {
	code := exitCode(err)
	var quiet *silentError
	if !errors.As(err, &quiet) {
		for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
			fmt.Fprintf(stderr, "cairn: %s\n", escapeControl(line))
		}
	}
	return code
}
