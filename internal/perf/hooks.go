package perf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/internal/synth"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// HookOptions configures HookFigures.
type HookOptions struct {
	Size   int
	Seed   int64
	Runs   int
	Binary string // the cairn executable whose hooks are timed
	Log    func(string)
}

// HookReport is the end-to-end wall time of hook processes, from spawn
// to exit, the way an agent experiences them.
type HookReport struct {
	Size            int     `json:"memories"`
	SessionStartMs  Stats   `json:"session_start_ms"`
	UserPromptMs    Stats   `json:"user_prompt_ms"`
	PostToolMs      Stats   `json:"post_tool_ms"`
	StartContextLen int     `json:"session_start_context_chars"` // median
	PromptsInjected float64 `json:"prompts_injected_fraction"`
}

// HookFigures builds a synthetic vault with a warm index and times
// `cairn hook session-start`, `user-prompt` and `post-tool` processes.
// Every hook writes its journal line and access log as it does for an
// agent; a hook that logs a failure fails the benchmark, since hooks
// themselves always exit 0.
func HookFigures(ctx context.Context, o HookOptions) (*HookReport, error) {
	if o.Runs <= 0 {
		o.Runs = 30
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			o.Log(fmt.Sprintf(format, args...))
		}
	}
	dir, err := os.MkdirTemp("", "cairn-bench-hooks-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		return nil, err
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		return nil, err
	}
	logf("generating %d memories", o.Size)
	if err := synth.Fill(ctx, v, o.Seed, o.Size, nil); err != nil {
		return nil, err
	}
	ix, err := index.Open(v, index.Options{})
	if err != nil {
		return nil, err
	}
	logf("building the index")
	if err := ix.Rebuild(ctx, ""); err != nil {
		return nil, err
	}
	if err := ix.Sync(ctx); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "CAIRN_USER_VAULT="+filepath.Join(dir, "no-user-vault"), "XDG_DATA_HOME="+filepath.Join(dir, "xdg"))
	run := func(event string, payload map[string]any) (float64, int, error) {
		payload["cwd"] = dir
		payload["hook_event_name"] = event
		in, _ := json.Marshal(payload)
		cmd := exec.CommandContext(ctx, o.Binary, "hook", event)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(in)
		var out bytes.Buffer
		cmd.Stdout = &out
		s := time.Now()
		err := cmd.Run()
		d := ms(time.Since(s))
		var res struct {
			HookSpecificOutput struct {
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if out.Len() > 0 {
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				return d, 0, fmt.Errorf("hook %s printed something that is not hook JSON: %v", event, err)
			}
		}
		return d, len(res.HookSpecificOutput.AdditionalContext), err
	}
	rep := &HookReport{Size: o.Size}
	queries := DefaultQueries(o.Seed, o.Runs)
	var start, prompt, post []float64
	var lens []float64
	injected := 0
	logf("timing %d sessions: session-start, a prompt, a tool result", o.Runs)
	for i := 0; i < o.Runs; i++ {
		session := fmt.Sprintf("bench-%04d", i)
		d, n, err := run("session-start", map[string]any{"session_id": session, "source": "startup"})
		if err != nil {
			return nil, err
		}
		start, lens = append(start, d), append(lens, float64(n))
		d, n, err = run("user-prompt", map[string]any{"session_id": session, "prompt": "How do we handle " + queries[i%len(queries)] + " here?"})
		if err != nil {
			return nil, err
		}
		prompt = append(prompt, d)
		if n > 0 {
			injected++
		}
		d, _, err = run("post-tool", map[string]any{"session_id": session, "tool_name": "Bash", "tool_use_id": "t1",
			"tool_input": map[string]any{"command": "go test ./..."}, "tool_response": map[string]any{"stdout": "ok", "exit_code": 0}})
		if err != nil {
			return nil, err
		}
		post = append(post, d)
	}
	logs, _ := os.ReadFile(filepath.Join(v.Root, index.CacheDir, "hooks.log"))
	if i := strings.Index(string(logs), "failed"); i >= 0 {
		line := string(logs[strings.LastIndexByte(string(logs[:i]), '\n')+1:])
		line, _, _ = strings.Cut(line, "\n")
		return nil, fmt.Errorf("a hook failed: %s", line)
	}
	rep.SessionStartMs, rep.UserPromptMs, rep.PostToolMs = Summarize(start), Summarize(prompt), Summarize(post)
	rep.StartContextLen = int(Summarize(lens).Median)
	rep.PromptsInjected = float64(injected) / float64(o.Runs)
	return rep, nil
}
