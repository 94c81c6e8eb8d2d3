package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// killloop OP [SYSCALL...] kills `cairn OP` with SIGKILL at each rename
// and fsync it makes, one run per point (strace fault injection: the
// process dies inside the system call, as on a crash). After every kill:
//   - `cairn doctor --check` must fail whenever the git index differs
//     from HEAD (it said ok before);
//   - the next cairn write, or `cairn doctor`, must leave the work tree,
//     the git index and HEAD equal (`git status` clean, untracked files
//     included), `git fsck --strict` clean, and every memory committed
//     before still in HEAD, and no temp file of the killed writer left.
//
// OP is remember, commit (hand edits made before each run) or sync
// (against the clone in $WORK/peer through the remote $WORK/remote.git).
// The figures go to the test log; any kill not survived fails the script.
func cmdKillLoop(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || neg {
		ts.Fatalf("usage: killloop remember|commit|sync [SYSCALL...]")
	}
	k := &killer{ts: ts, cairn: lookPath(ts, "cairn"), dir: ts.MkAbs("."), env: scriptEnv(ts), op: args[0]}
	k.vault = filepath.Join(k.dir, ".memory")
	calls := args[1:]
	if len(calls) == 0 {
		calls = []string{"renameat", "fsync"}
	}
	for _, sys := range calls {
		n := 1
		defer func(sys string, n *int) { ts.Logf("killloop %s: %d points at %s", k.op, *n-1, sys) }(sys, &n)
		for ; n <= 200; n++ {
			before := k.headFiles(k.vault)
			k.prepare(sys, n)
			killed := k.traced(sys, n)
			if !killed {
				break
			}
			k.kills++
			if err := k.check(sys, n, before); err != nil {
				k.failures = append(k.failures, fmt.Sprintf("%s #%d: %v", sys, n, err))
				continue
			}
			k.survived++
		}
	}
	ts.Logf("killloop %s: %d kills, %d survived with worktree = index = HEAD", k.op, k.kills, k.survived)
	if k.kills == 0 {
		ts.Fatalf("killloop %s: no kill point was reached", k.op)
	}
	if len(k.failures) > 0 {
		ts.Fatalf("killloop %s: %d of %d kills not survived:\n%s", k.op, len(k.failures), k.kills, strings.Join(k.failures, "\n"))
	}
}

type killer struct {
	ts              *testscript.TestScript
	cairn, dir, op  string
	vault           string
	env             []string
	kills, survived int
	failures        []string
}

func (k *killer) exec(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(k.env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (k *killer) must(dir, name string, args ...string) string {
	out, err := k.exec(dir, name, args...)
	if err != nil {
		k.ts.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// prepare sets up the change the traced run makes.
func (k *killer) prepare(sys string, n int) {
	tag := fmt.Sprintf("%s-%d", sys, n)
	switch k.op {
	case "commit":
		dir := filepath.Join(k.vault, "cases")
		_ = os.MkdirAll(dir, 0o755)
		body := fmt.Sprintf("---\nkind: case\ntitle: Hand %s\n---\nEdited by hand in run %s.\n", tag, tag)
		if err := os.WriteFile(filepath.Join(dir, "hand-"+tag+".md"), []byte(body), 0o644); err != nil {
			k.ts.Fatalf("%v", err)
		}
		if f, err := os.OpenFile(filepath.Join(dir, "shared.md"), os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "\nLine of run %s.\n", tag)
			f.Close()
		}
	case "sync":
		// The other clone and the local side commit with plain git: it is
		// quicker than cairn, and cairn must cope with commits it did
		// not make anyway.
		work := k.ts.Getenv("WORK")
		remote, peer := filepath.Join(work, "remote.git"), filepath.Join(work, "peer", ".memory")
		k.must(peer, "git", "fetch", "-q", remote, "cairn/memory")
		k.must(peer, "git", "reset", "-q", "--hard", "FETCH_HEAD")
		k.gitMemory(peer, "events/peer-"+tag+".md", "Peer "+tag)
		k.must(peer, "git", "push", "-q", remote, "HEAD:refs/heads/cairn/memory")
		if n%2 == 0 {
			k.gitMemory(k.vault, "events/local-"+tag+".md", "Local "+tag)
		}
	}
}

// gitMemory commits a new memory file with git alone.
func (k *killer) gitMemory(vault, rel, title string) {
	p := filepath.Join(vault, filepath.FromSlash(rel))
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	body := fmt.Sprintf("---\nkind: event\ntitle: %s\ncreated: 2026-11-20T10:00:00Z\nupdated: 2026-11-20T10:00:00Z\n---\nWritten by git in run %s.\n", title, title)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		k.ts.Fatalf("%v", err)
	}
	k.must(vault, "git", "add", rel)
	k.must(vault, "git", "commit", "-q", "-m", "git: "+title)
}

func (k *killer) args(sys string, n int) []string {
	switch k.op {
	case "remember":
		return []string{"remember", "-k", "event", "-t", fmt.Sprintf("Victim %s %d", sys, n), "-b", fmt.Sprintf("Written while killed at %s #%d.", sys, n)}
	case "commit":
		return []string{"commit", "-m", "hand edits"}
	case "sync":
		return []string{"sync"}
	}
	k.ts.Fatalf("killloop: unknown operation %q", k.op)
	return nil
}

// traced runs the operation under strace and reports whether the
// injected SIGKILL ended it (false: it ran past the last such call).
func (k *killer) traced(sys string, n int) bool {
	args := append([]string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=" + sys, "-e", fmt.Sprintf("inject=%s:signal=KILL:when=%d", sys, n), k.cairn}, k.args(sys, n)...)
	out, err := k.exec(k.dir, "strace", args...)
	if err == nil {
		return false
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && (ws.Signaled() && ws.Signal() == syscall.SIGKILL || ws.ExitStatus() == 128+int(syscall.SIGKILL)) {
			return true
		}
		if k.op == "sync" {
			return true // a git child killed: cairn failed, the vault must still hold
		}
	}
	k.ts.Fatalf("cairn %s (%s #%d) failed without being killed: %v\n%s", k.op, sys, n, err, out)
	return false
}

// check verifies detection, recovery and consistency after one kill.
func (k *killer) check(sys string, n int, before []string) error {
	if staged, _ := k.exec(k.vault, "git", "diff", "--cached", "--name-only", "HEAD"); strings.TrimSpace(staged) != "" {
		if _, err := k.exec(k.dir, k.cairn, "doctor", "--check"); err == nil {
			return fmt.Errorf("the git index differs from HEAD (%s) and `cairn doctor --check` says ok", strings.Fields(staged)[0])
		}
	}
	// Recover through doctor on odd runs, through the next write on even
	// ones; either must do.
	if n%2 == 1 {
		if out, err := k.exec(k.dir, k.cairn, "doctor"); err != nil {
			return fmt.Errorf("cairn doctor after the kill: %v\n%s", err, out)
		}
	}
	var next []string
	switch k.op {
	case "remember":
		if n%2 == 0 {
			next = []string{"remember", "-k", "event", "-t", fmt.Sprintf("After %s %d", sys, n), "-b", "The next write."}
		}
	case "commit":
		next = []string{"commit"}
	case "sync":
		next = []string{"sync"}
	}
	if next != nil {
		if out, err := k.exec(k.dir, k.cairn, next...); err != nil {
			return fmt.Errorf("cairn %s after the kill: %v\n%s", strings.Join(next, " "), err, out)
		}
	}
	if st, _ := k.exec(k.vault, "git", "status", "--porcelain", "--untracked-files=all"); strings.TrimSpace(st) != "" {
		return fmt.Errorf("work tree, index and HEAD differ:\n%s", st)
	}
	if out, err := k.exec(k.vault, "git", "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil {
		return fmt.Errorf("git fsck: %v\n%s", err, out)
	}
	if temps, _ := k.exec(k.vault, "find", ".", "-name", ".cairn-tmp-*"); strings.TrimSpace(temps) != "" {
		return fmt.Errorf("temp files of the killed writer left behind:\n%s", temps)
	}
	after := k.headFiles(k.vault)
	for _, f := range before {
		if !slices.Contains(after, f) {
			return fmt.Errorf("%s was committed before the kill and is gone from HEAD", f)
		}
	}
	if k.op == "sync" {
		remote := filepath.Join(k.ts.Getenv("WORK"), "remote.git")
		if out, err := k.exec(remote, "git", "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil {
			return fmt.Errorf("git fsck of the remote: %v\n%s", err, out)
		}
		pushed := strings.Fields(k.must(remote, "git", "ls-tree", "-r", "--name-only", "cairn/memory"))
		for _, f := range after {
			if !slices.Contains(pushed, f) {
				return fmt.Errorf("%s is not on the remote after the next sync", f)
			}
		}
	}
	return nil
}

func (k *killer) headFiles(vault string) []string {
	out, err := k.exec(vault, "git", "ls-tree", "-r", "--name-only", "HEAD")
	if err != nil {
		return nil
	}
	return strings.Fields(out)
}

// canTrace is the [ptrace] condition of the scripts: strace is installed
// and allowed to trace (containers may forbid ptrace).
func canTrace() bool {
	return exec.Command("strace", "-f", "-qq", "-o", "/dev/null", "true").Run() == nil
}
