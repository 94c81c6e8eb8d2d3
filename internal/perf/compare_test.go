package perf

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		line string
		args []string
		bad  bool
	}{
		{line: `cairn search -- "retry budget"`, args: []string{"cairn", "search", "--", "retry budget"}},
		{line: `engram search 'a b' c\ d`, args: []string{"engram", "search", "a b", "c d"}},
		{line: `  `, bad: true},
		{line: `cairn "open`, bad: true},
	} {
		c, err := ParseCommand(tc.line)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.line)
			}
			continue
		}
		if err != nil || strings.Join(c.Args, "|") != strings.Join(tc.args, "|") || c.Name != tc.line {
			t.Errorf("%q = %q, %v; want %q", tc.line, c.Args, err, tc.args)
		}
	}
}

// The test binary itself, asked to run no test, is a portable command
// that starts and exits.
func quick(name string) Command {
	return Command{Name: name, Args: []string{os.Args[0], "-test.run=^$"}}
}

func TestCompareTimesEveryCommandEveryRound(t *testing.T) {
	rows, err := Compare(context.Background(), CompareOptions{Commands: []Command{quick("a"), quick("b")}, Runs: 3, Warmup: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Name != "a" || rows[1].Name != "b" {
		t.Fatalf("rows = %+v", rows)
	}
	for _, r := range rows {
		if r.WallMs.N != 3 || r.WallMs.Min <= 0 || r.WallMs.Max < r.WallMs.Median {
			t.Errorf("%s: wall %+v", r.Name, r.WallMs)
		}
	}
	if rows[0].Ratio != 1 {
		t.Errorf("reference ratio = %v, want 1", rows[0].Ratio)
	}
}

func TestCommandFillsPlaceholdersAndReportsFailure(t *testing.T) {
	c := Command{Name: "fails", Args: []string{os.Args[0], "-test.run={run}", "-no-such-flag"}}
	_, _, err := c.Start(context.Background(), map[string]string{"run": "7"})
	if err == nil || !strings.Contains(err.Error(), "fails") || !strings.Contains(err.Error(), "exit status") {
		t.Fatalf("err = %v; want the command's name and how it ended", err)
	}
}

func TestDiskUsageSplitsGitAndCache(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{".git/objects/ab/cd", ".cache/index/seg", "decisions/a.md"} {
		f := root + "/" + p
		if err := os.MkdirAll(f[:strings.LastIndex(f, "/")], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("12345"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := diskUsage(root)
	if d.Total.Files != 3 || d.Git.Files != 1 || d.Cache.Files != 1 || d.Total.Bytes != 15 || d.Total.Allocated < d.Git.Allocated {
		t.Fatalf("disk = %+v", d)
	}
}
