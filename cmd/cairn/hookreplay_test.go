package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// hookreplay TRANSCRIPT SESSION [TRANSCRIPT SESSION...] plays recorded
// Claude Code sessions through `cairn hook` the way Claude Code fires the
// hooks: the transcript file grows line by line; session-start first,
// user-prompt on each human message, post-tool on each tool result, stop
// and session-end at the end (then it waits for the detached finalizer).
// Several sessions play at once, each hook its own process, as when
// several agents share a project. The word PROJECT in a recording stands
// for the current directory. Each hook's stdout is saved as
// hooks-out/SESSION/NN-EVENT.json; a hook that exits non-zero or writes to
// stderr fails the script.
func cmdHookReplay(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 || len(args)%2 != 0 || neg {
		ts.Fatalf("usage: hookreplay TRANSCRIPT SESSION [TRANSCRIPT SESSION...]")
	}
	r := replayer{cwd: ts.MkAbs("."), work: ts.Getenv("WORK"), env: scriptEnv(ts), cairn: lookPath(ts, "cairn")}
	var wg sync.WaitGroup
	errs := make([]error, len(args)/2)
	for i := 0; i < len(args); i += 2 {
		raw, err := os.ReadFile(ts.MkAbs(args[i]))
		ts.Check(err)
		wg.Add(1)
		go func(i int, raw []byte, session string) {
			defer wg.Done()
			errs[i] = r.replay(raw, session)
		}(i/2, raw, args[i+1])
	}
	wg.Wait()
	ts.Check(errors.Join(errs...))
	ts.Check(r.waitFinalizers())
}

type replayer struct {
	cwd, work, cairn string
	env              []string
}

func (r replayer) replay(raw []byte, session string) error {
	transcript := filepath.Join(r.work, "transcripts", session+".jsonl")
	outDir := filepath.Join(r.cwd, "hooks-out", session)
	_ = os.RemoveAll(outDir)
	for _, d := range []string{filepath.Dir(transcript), outDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	tf, err := os.Create(transcript)
	if err != nil {
		return err
	}
	defer tf.Close()

	n := 0
	fire := func(event string, fields map[string]any) error {
		n++
		fields["session_id"] = session
		fields["transcript_path"] = transcript
		fields["cwd"] = r.cwd
		fields["hook_event_name"] = event
		in, _ := json.Marshal(fields)
		cmd := exec.Command(r.cairn, "hook", event)
		cmd.Dir, cmd.Env, cmd.Stdin = r.cwd, r.env, bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || errb.Len() > 0 {
			return fmt.Errorf("%s: cairn hook %s: %v\n%s", session, event, err, errb.String())
		}
		return os.WriteFile(filepath.Join(outDir, fmt.Sprintf("%02d-%s.json", n, event)), out.Bytes(), 0o644)
	}

	tools := map[string]map[string]any{} // tool_use id → name and input
	lastReply := ""
	if err := fire("session-start", map[string]any{"source": "startup"}); err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), "PROJECT", r.cwd)
		if _, err := tf.WriteString(line + "\n"); err != nil {
			return err
		}
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		var text string
		if json.Unmarshal(rec.Message.Content, &text) == nil {
			if rec.Type == "user" {
				if err := fire("user-prompt", map[string]any{"prompt": text}); err != nil {
					return err
				}
			}
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     map[string]any  `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		_ = json.Unmarshal(rec.Message.Content, &blocks)
		for _, b := range blocks {
			var err error
			switch {
			case b.Type == "text" && rec.Type == "user":
				err = fire("user-prompt", map[string]any{"prompt": b.Text})
			case b.Type == "text":
				lastReply = b.Text
			case b.Type == "tool_use":
				tools[b.ID] = map[string]any{"name": b.Name, "input": b.Input}
			case b.Type == "tool_result":
				t := tools[b.ToolUseID]
				var out string
				if json.Unmarshal(b.Content, &out) != nil {
					out = string(b.Content)
				}
				resp := map[string]any{"stdout": out, "stderr": "", "interrupted": false}
				if b.IsError {
					resp = map[string]any{"error": out}
				}
				err = fire("post-tool", map[string]any{"tool_name": t["name"], "tool_input": t["input"], "tool_use_id": b.ToolUseID, "tool_response": resp})
			}
			if err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if err := fire("stop", map[string]any{"stop_hook_active": false, "last_assistant_message": lastReply}); err != nil {
		return err
	}
	return fire("session-end", map[string]any{"reason": "logout"})
}

// waitFinalizers waits for the detached session-end processes: each
// removes its payload file when it is done.
func (r replayer) waitFinalizers() error {
	dir := filepath.Join(r.cwd, ".memory", ".cache", "finalize")
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		left, _ := filepath.Glob(filepath.Join(dir, "payload-*.json"))
		if len(left) == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New("a session-end finalizer did not finish")
}

func lookPath(ts *testscript.TestScript, name string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	ts.Fatalf("%s not on PATH", name)
	return ""
}

// scriptEnv is the environment the script's own exec commands get.
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GIT_CONFIG_NOSYSTEM", "TMPDIR", "CAIRN_LOCK_TIMEOUT"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
