package transcript

import "testing"

// exitCodeLine must find what the whole-output pattern finds.
func TestExitCodeLineMatchesPattern(t *testing.T) {
	for _, out := range []string{
		"", "ok", "Exit code 1\nFAIL", "FAIL\nexit status 2\n", "building\nProcess exited with code 137",
		"the exit code 3 is here", "EXIT CODE: -1", "x\n\nexit code 4", "exit code\n5", "exited with code 9",
		"Exit code 1 and then\nexit code 2", "peek\nprocess exited with code 0\n",
	} {
		var want *int
		if m := reExitCode.FindStringSubmatch(out); m != nil {
			want = atoiPtr(m[1])
		}
		got := exitCodeLine(out)
		if (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Errorf("%q: exitCodeLine = %v, pattern = %v", out, deref(got), deref(want))
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
