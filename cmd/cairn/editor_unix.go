//go:build !windows

package main

import "os/exec"

const defaultEditor = "vi"

// editorCmd runs the editor through sh, as git does, so EDITOR may carry
// arguments and quotes.
func editorCmd(ed, path string) *exec.Cmd {
	return exec.Command("sh", "-c", ed+` "$@"`, ed, path)
}
