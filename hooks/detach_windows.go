//go:build windows

package hooks

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// startDetached starts a copy of cmd without a console and in a process
// group of its own, so closing the agent's console does not end it, and
// out of the agent's job object when the job allows it: Node (libuv) puts
// children in a job that kills them when the agent exits. A job that
// forbids breakaway refuses the flag; then the process starts inside it.
func startDetached(cmd *exec.Cmd) (*os.Process, error) {
	const flags = windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP
	start := func(extra uint32) (*os.Process, error) {
		c := exec.Command(cmd.Path, cmd.Args[1:]...) // a Cmd starts once, even when Start fails
		c.Dir, c.Env = cmd.Dir, cmd.Env
		c.Stdin, c.Stdout, c.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
		c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: flags | extra, HideWindow: true}
		if err := c.Start(); err != nil {
			return nil, err
		}
		return c.Process, nil
	}
	if p, err := start(windows.CREATE_BREAKAWAY_FROM_JOB); err == nil {
		return p, nil
	}
	return start(0)
}
