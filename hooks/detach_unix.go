//go:build !windows

package hooks

import (
	"os"
	"os/exec"
	"syscall"
)

// startDetached starts cmd in a session of its own, so it survives the
// agent's process group when the agent ends the session.
func startDetached(cmd *exec.Cmd) (*os.Process, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd.Process, nil
}
