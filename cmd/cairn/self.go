package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/cairnmem/cairn/hooks"
)

// How other programs (agents, git) should start this cairn. The rules
// differ by OS and are pure functions of it, so each is tested on Linux.

// self is what the running process knows about where it came from.
type self struct {
	goos   string
	exe    string // os.Executable(), as started
	real   string // exe with symlinks resolved
	onPath string // the cairn PATH finds, as PATH names it ("" when none)
	pathTo string // onPath with symlinks resolved
}

func currentSelf() self {
	s := self{goos: runtime.GOOS}
	s.exe, _ = os.Executable()
	s.real, _ = filepath.EvalSymlinks(s.exe)
	if p, err := exec.LookPath("cairn"); err == nil {
		s.onPath, _ = filepath.Abs(p)
		s.pathTo, _ = filepath.EvalSymlinks(p)
	}
	return s
}

// hookCommand is the command agents run for hooks and the MCP server (in
// exec form: no shell, so spaces in it are fine). On Linux it is "cairn"
// when this binary is the one on PATH. On macOS and Windows it is always
// an absolute path: agents started from the Dock, Spotlight or an IDE do
// not see the shell's PATH (Homebrew's /opt/homebrew/bin among others),
// and a PATH changed on Windows reaches only new sessions. Where PATH
// finds this binary through a symlink (Homebrew's bin/cairn into its
// versioned Cellar) that stable path is written, so upgrades keep working.
func (s self) hookCommand() string {
	if s.exe == "" || !hooks.IsCairnBinary(s.real) {
		return "cairn" // a test binary or go run: name the installed command
	}
	viaPath := s.onPath != "" && s.pathTo == s.real
	switch {
	case viaPath && s.goos != "darwin" && s.goos != "windows":
		return "cairn"
	case viaPath:
		return s.onPath
	case s.goos == "linux":
		return s.real
	default:
		return s.exe
	}
}

// shellCommand is hookCommand as one word for a command line git runs
// through sh (the merge driver): quoted when it holds anything a shell
// would split or expand, with '/' for '\' on Windows, where git runs the
// driver through its own POSIX shell.
func (s self) shellCommand() string {
	c := s.hookCommand()
	if s.goos == "windows" {
		c = strings.ReplaceAll(c, `\`, "/")
	}
	if c != "" && strings.Trim(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-:+@") == "" {
		return c
	}
	return "'" + strings.ReplaceAll(c, "'", `'\''`) + "'"
}

// executable is the cairn binary to start again (the detached finalizer,
// benchmarks): this executable, or the cairn on PATH when this one is not
// named cairn (a test binary dispatching on its name).
func (s self) executable() string {
	if s.exe != "" && hooks.IsCairnBinary(s.exe) {
		return s.exe
	}
	if s.onPath != "" {
		return s.onPath
	}
	return s.exe
}
