package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// hookfuzz N [SEED] runs `cairn hook EVENT` N times on generated payloads:
// fields of every JSON type, huge words (400,000 characters), NUL and
// escape bytes, invalid UTF-8, secrets, truncated and garbled JSON, deep
// nesting, oversized stdin, and transcript paths naming /dev/zero,
// /dev/urandom, a FIFO, a directory, a sparse file past the size cap and
// files with huge lines. Every run must exit 0 within 30 s and print
// nothing or the hook's JSON; afterwards the vault must be consistent
// (git status clean, git fsck --strict) and hold no control bytes.
// $CAIRN_HOOKFUZZ_N overrides N for long runs.
func cmdHookFuzz(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || neg {
		ts.Fatalf("usage: hookfuzz N [SEED]")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	if v, err := strconv.Atoi(os.Getenv("CAIRN_HOOKFUZZ_N")); err == nil && v > 0 {
		n = v
	}
	seed := uint64(1)
	if len(args) > 1 {
		s, err := strconv.ParseUint(args[1], 10, 64)
		ts.Check(err)
		seed = s
	}
	f := newFuzzer(ts, seed)
	bad, slow := 0, 0
	var failures []string
	start := time.Now()
	for i := 0; i < n; i++ {
		event, stdin, extra := f.payload(i)
		out, code, took, err := f.run(event, stdin, extra)
		switch {
		case err != nil:
			slow++
			failures = append(failures, fmt.Sprintf("run %d (%s): %v", i, event, err))
		case code != 0:
			bad++
			failures = append(failures, fmt.Sprintf("run %d (%s): exit %d", i, event, code))
		case !hookOutputOK(out):
			bad++
			failures = append(failures, fmt.Sprintf("run %d (%s): stdout is not hook JSON: %.200q", i, event, out))
		case took > 20*time.Second:
			slow++
			failures = append(failures, fmt.Sprintf("run %d (%s): took %s", i, event, took))
		}
	}
	ts.Logf("hookfuzz: %d runs in %s, %d with an exit other than 0 or bad output, %d too slow", n, time.Since(start).Round(time.Second), bad, slow)
	if len(failures) > 0 {
		if len(failures) > 20 {
			failures = append(failures[:20], "...")
		}
		ts.Fatalf("hookfuzz: %d of %d runs failed:\n%s", len(failures), n, strings.Join(failures, "\n"))
	}
}

func hookOutputOK(out string) bool {
	out = strings.TrimSpace(out)
	if out == "" {
		return true
	}
	var o struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	return dec.Decode(&o) == nil && o.HookSpecificOutput.HookEventName != "" && !dec.More()
}

type fuzzer struct {
	ts    *testscript.TestScript
	rnd   *rand.Rand
	cairn string
	dir   string
	env   []string
	paths []string // transcript paths to try
}

func newFuzzer(ts *testscript.TestScript, seed uint64) *fuzzer {
	f := &fuzzer{ts: ts, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), cairn: lookPath(ts, "cairn"), dir: ts.MkAbs("."), env: scriptEnv(ts)}
	work := ts.MkAbs("fuzz-files")
	ts.Check(os.MkdirAll(work, 0o755))
	fifo := filepath.Join(work, "fifo")
	mkfifo(fifo)
	sparse := filepath.Join(work, "sparse.jsonl")
	if fh, err := os.Create(sparse); err == nil {
		_ = fh.Truncate(1 << 30)
		fh.Close()
	}
	longLine := filepath.Join(work, "long-line.jsonl")
	_ = os.WriteFile(longLine, []byte(`{"type":"user","message":{"role":"user","content":"`+strings.Repeat("w", 20<<20)+`"}}`+"\n"), 0o644)
	garbage := filepath.Join(work, "garbage.jsonl")
	junk := make([]byte, 64<<10)
	for i := range junk {
		junk[i] = byte(f.rnd.IntN(256))
	}
	_ = os.WriteFile(garbage, junk, 0o644)
	good := filepath.Join(work, "good.jsonl")
	_ = os.WriteFile(good, []byte(`{"type":"user","sessionId":"s1","message":{"role":"user","content":"We decided to use sqlite for the job queue because it embeds."}}`+"\n"+
		`{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"Done: the queue now uses sqlite."}]}}`+"\n"), 0o644)
	f.paths = []string{"", "/dev/zero", "/dev/urandom", "/dev/null", fifo, work, sparse, longLine, garbage, good, filepath.Join(work, "missing.jsonl"), "relative/../../x", "\x00"}
	return f
}

var fuzzEvents = []string{"session-start", "user-prompt", "post-tool", "pre-compact", "stop", "finalize", "bogus-event"}

// value returns a random JSON value, mostly strings that stress the code.
func (f *fuzzer) value(depth int) any {
	switch f.rnd.IntN(14) {
	case 0:
		return nil
	case 1:
		return f.rnd.IntN(2) == 0
	case 2:
		return f.rnd.Float64() * 1e12
	case 3:
		if depth > 2 {
			return "deep"
		}
		return []any{f.value(depth + 1), f.value(depth + 1)}
	case 4:
		if depth > 2 {
			return "deep"
		}
		return map[string]any{"k": f.value(depth + 1), "stdout": f.value(depth + 1)}
	case 5:
		return strings.Repeat("abcdefgh", 50000) // one 400,000-character word
	case 6:
		return "remember this: the cache key \x00 is \x1b[31mred\x1b[0m and never \x07 rings"
	case 7:
		return "bad utf8 \xff\xfe\xc3 we decided to drop \xe2\x82 it"
	case 8:
		return "never commit AKIAA5LQSAJ08XUI6D39 or sk-ant-api03-Zq8Lm3Pv9Rt2Xw7NbK4Hj6FdPq8Lm3Pv9Rt2 again"
	case 9:
		return strings.Repeat("we decided to use bleve because it is pure Go. ", 2000)
	case 10:
		return "Remember this: deploys go through the canary pool first."
	default:
		words := []string{"cache", "index", "the", "rebuild", "we", "decided", "never", "always", "TODO", "root", "cause", "fix", "test"}
		var b strings.Builder
		for i := 0; i < 1+f.rnd.IntN(12); i++ {
			b.WriteString(words[f.rnd.IntN(len(words))] + " ")
		}
		return b.String()
	}
}

// hazard is a payload known to have broken a hook; the first runs play
// each once, the rest are random.
type hazard struct {
	event string
	p     map[string]any
}

func (f *fuzzer) hazards() []hazard {
	huge := "please look at the caching decision " + strings.Repeat("abcdefgh", 50000) + " again"
	tp := func(i int) string { return f.paths[i] }
	return []hazard{
		{"user-prompt", map[string]any{"prompt": huge}},
		{"user-prompt", map[string]any{"prompt": "remember this: the cache \x00 key \x1b[31m is red", "session_id": "s\x00\x1b[2J"}},
		{"stop", map[string]any{"transcript_path": tp(1)}},
		{"pre-compact", map[string]any{"transcript_path": tp(2)}},
		{"stop", map[string]any{"transcript_path": tp(4)}},
		{"stop", map[string]any{"transcript_path": tp(5)}},
		{"stop", map[string]any{"transcript_path": tp(6)}},
		{"pre-compact", map[string]any{"transcript_path": tp(7)}},
		{"stop", map[string]any{"transcript_path": tp(8), "last_assistant_message": huge}},
		{"finalize", map[string]any{"transcript_path": tp(1)}},
		{"finalize", map[string]any{"transcript_path": tp(4)}},
		{"post-tool", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": huge}, "tool_response": strings.Repeat("line of output\n", 200000)}},
		{"session-start", map[string]any{"source": map[string]any{"not": "a string"}}},
	}
}

// payload returns an event, its stdin and extra arguments.
func (f *fuzzer) payload(i int) (string, []byte, []string) {
	if hz := f.hazards(); i < len(hz) {
		p := map[string]any{"session_id": fmt.Sprintf("hz-%d", i), "cwd": f.dir}
		for k, v := range hz[i].p {
			p[k] = v
		}
		data, _ := json.Marshal(p)
		return f.wrap(hz[i].event, data, i)
	}
	event := fuzzEvents[f.rnd.IntN(len(fuzzEvents))]
	cwds := []any{f.dir, f.dir, f.dir, "/", "/nonexistent", filepath.Join(f.dir, "fuzz-files", "good.jsonl"), "", f.value(0)}
	sessions := []any{"s-" + strconv.Itoa(i%7), "s\x00\x1b[2J", "../../../etc/passwd", strings.Repeat("x", 10000), "sk-ant-api03-Zq8Lm3Pv9Rt2Xw7NbK4Hj6FdPq8Lm3Pv9Rt2", f.value(0)}
	p := map[string]any{
		"session_id":      sessions[f.rnd.IntN(len(sessions))],
		"transcript_path": f.paths[f.rnd.IntN(len(f.paths))],
		"cwd":             cwds[f.rnd.IntN(len(cwds))],
		"hook_event_name": f.value(0),
	}
	for _, k := range []string{"prompt", "source", "tool_name", "tool_input", "tool_use_id", "tool_response", "last_assistant_message", "reason", "trigger", "stop_hook_active", "duration_ms"} {
		if f.rnd.IntN(2) == 0 {
			p[k] = f.value(0)
		}
	}
	data, _ := json.Marshal(p)
	switch f.rnd.IntN(10) {
	case 0:
		data = data[:f.rnd.IntN(len(data)+1)] // truncated
	case 1:
		for j := 0; j < 1+f.rnd.IntN(8); j++ { // garbled
			data[f.rnd.IntN(len(data))] = byte(f.rnd.IntN(256))
		}
	case 2:
		data = []byte([]string{"", "null", "[]", "42", `"x"`, "{", strings.Repeat("[", 100000), "\x00\x00\x00"}[f.rnd.IntN(8)])
	case 3:
		data = append(bytes.Repeat([]byte(" "), 3<<20), data...) // past the stdin cap
	}
	return f.wrap(event, data, i)
}

// wrap hands the finalizer its payload as a file, the others on stdin.
func (f *fuzzer) wrap(event string, data []byte, i int) (string, []byte, []string) {
	if event == "finalize" {
		path := filepath.Join(f.dir, "fuzz-files", fmt.Sprintf("payload-%d.json", i))
		_ = os.WriteFile(path, data, 0o644)
		return event, nil, []string{"--payload", path}
	}
	return event, data, nil
}

func (f *fuzzer) run(event string, stdin []byte, extra []string) (string, int, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.cairn, append([]string{"hook", event}, extra...)...)
	cmd.Dir = f.dir
	cmd.Env = f.env
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		return out.String(), -1, took, fmt.Errorf("killed after %s", took.Round(time.Millisecond))
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode(), took, nil
	}
	return out.String(), 0, took, err
}
