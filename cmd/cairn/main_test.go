package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cairn": func() {
			// One OS thread for the main goroutine: strace counts system
			// calls per thread, so killloop's "the Nth rename" then means
			// the Nth rename of the write path, whatever the scheduler does.
			runtime.LockOSThread()
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the CLI scripts under testdata/script with HOME and
// XDG directories isolated in the script's work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("EDITOR", "false")
			env.Setenv("VISUAL", "")
			env.Setenv("CAIRN_SESSION", "")
			env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
			return os.MkdirAll(home, 0o755)
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "ptrace":
				return canTrace(), nil
			case "race":
				return raceBuild, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":   cmdExitCode,
			"jsonlen":    cmdJSONLen,
			"hookreplay": cmdHookReplay,
			"killloop":   cmdKillLoop,
			"hookfuzz":   cmdHookFuzz,
		},
	})
}

// exitcode N prog args... runs a program and checks its exit status;
// stdout and stderr are kept for the next assertions.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("run %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if (got == want) == neg {
		ts.Fatalf("exit code %d, want %d\nstderr:\n%s", got, want, ts.ReadFile("stderr"))
	}
}

// jsonlen N checks that stdout is a JSON array of N items.
func cmdJSONLen(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: jsonlen N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &items); err != nil {
		ts.Fatalf("stdout is not a JSON array: %v", err)
	}
	if (len(items) == want) == neg {
		ts.Fatalf("JSON array has %d items, want %d", len(items), want)
	}
}
