//go:build windows

package main

import (
	"os"
	"os/exec"
)

const defaultEditor = "notepad"

// editorCmd runs the editor directly: Windows has no sh to interpret
// EDITOR, so it is split as a command line (see splitCommandLine).
func editorCmd(ed, path string) *exec.Cmd {
	prog, args := splitCommandLine(ed, func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && !fi.IsDir()
	})
	return exec.Command(prog, append(args, path)...)
}
