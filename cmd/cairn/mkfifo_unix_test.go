//go:build unix

package main

import "syscall"

// mkfifo makes a named pipe for the hook fuzzer to point transcripts at.
func mkfifo(path string) { _ = syscall.Mkfifo(path, 0o600) }
