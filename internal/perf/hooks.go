package perf

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	// Compare times another tool's command for an event (session-start,
	// user-prompt, post-tool) right after each of cairn's, with the same
	// payload on stdin and {prompt}, {session}, {dir} and {run} filled in.
	Compare map[string]Command
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
	PeakRSSMB       float64 `json:"peak_rss_mb"` // the largest of all hook processes
	// Compare holds the other tool's figures, when asked for.
	Compare []Compared `json:"compare,omitempty"`
}

// Compared is another tool's command timed beside one of cairn's.
type Compared struct {
	What    string  `json:"what"` // the cairn measurement it ran beside
	Command string  `json:"command"`
	Ms      Stats   `json:"ms"`
	Ratio   float64 `json:"ratio"` // its median over cairn's: above 1, cairn is faster
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
	v, err := indexedVault(ctx, dir, o.Seed, o.Size, logf)
	if err != nil {
		return nil, err
	}
	h := &hookRunner{ctx: ctx, o: o, dir: dir, others: map[string][]float64{},
		env: []string{"CAIRN_USER_VAULT=" + filepath.Join(dir, "no-user-vault"), "XDG_DATA_HOME=" + filepath.Join(dir, "xdg")}}
	rep := &HookReport{Size: o.Size}
	queries := DefaultQueries(o.Seed, o.Runs)
	var start, prompt, post []float64
	var lens []float64
	injected := 0
	logf("timing %d sessions: session-start, a prompt, a tool result", o.Runs)
	for i := 0; i < o.Runs; i++ {
		session := fmt.Sprintf("bench-%04d", i)
		d, n, err := h.run("session-start", i, map[string]any{"session_id": session, "source": "startup"})
		if err != nil {
			return nil, err
		}
		start, lens = append(start, d), append(lens, float64(n))
		d, n, err = h.run("user-prompt", i, map[string]any{"session_id": session, "prompt": "How do we handle " + queries[i%len(queries)] + " here?"})
		if err != nil {
			return nil, err
		}
		prompt = append(prompt, d)
		if n > 0 {
			injected++
		}
		d, _, err = h.run("post-tool", i, map[string]any{"session_id": session, "tool_name": "Bash", "tool_use_id": "t1",
			"tool_input": map[string]any{"command": "go test ./..."}, "tool_response": map[string]any{"stdout": "ok", "exit_code": 0}})
		if err != nil {
			return nil, err
		}
		post = append(post, d)
	}
	if err := hookFailure(v.Root); err != nil {
		return nil, err
	}
	rep.SessionStartMs, rep.UserPromptMs, rep.PostToolMs = Summarize(start), Summarize(prompt), Summarize(post)
	rep.PeakRSSMB = float64(h.peak) / (1 << 20)
	for _, ev := range []string{"session-start", "user-prompt", "post-tool"} {
		if ts, ok := h.others[ev]; ok {
			mine := map[string]Stats{"session-start": rep.SessionStartMs, "user-prompt": rep.UserPromptMs, "post-tool": rep.PostToolMs}[ev]
			st := Summarize(ts)
			rep.Compare = append(rep.Compare, Compared{What: ev, Command: o.Compare[ev].Name, Ms: st, Ratio: ratio(st.Median, mine.Median)})
		}
	}
	rep.StartContextLen = int(Summarize(lens).Median)
	rep.PromptsInjected = float64(injected) / float64(o.Runs)
	return rep, nil
}

// indexedVault is a project vault in dir filled with size synthetic
// memories, its search cache built and synced.
func indexedVault(ctx context.Context, dir string, seed int64, size int, logf func(string, ...any)) (*vault.Vault, error) {
	if _, err := vault.Init(ctx, vault.InitOptions{Scope: schema.ScopeProject, Dir: dir}); err != nil {
		return nil, err
	}
	v, err := vault.Open(filepath.Join(dir, vault.DirName), schema.ScopeProject)
	if err != nil {
		return nil, err
	}
	logf("generating %d memories", size)
	if err := synth.Fill(ctx, v, seed, size, nil); err != nil {
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
	return v, ix.Sync(ctx)
}

// hookRunner runs `cairn hook` processes on one vault, and the command to
// compare with after each; it keeps the peak memory and the other
// command's times by event.
type hookRunner struct {
	ctx    context.Context
	o      HookOptions
	dir    string
	env    []string
	peak   int64
	others map[string][]float64
}

// run runs one hook event with a payload, and says how long it took and
// how much context it injected.
func (h *hookRunner) run(event string, round int, payload map[string]any) (float64, int, error) {
	payload["cwd"] = h.dir
	payload["hook_event_name"] = event
	in, _ := json.Marshal(payload)
	c := Command{Name: "cairn hook " + event, Args: []string{h.o.Binary, "hook", event}, Dir: h.dir, Stdin: in, Env: h.env}
	s, out, err := c.Start(h.ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	h.peak = max(h.peak, s.RSS)
	var res struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(out) > 0 {
		if err := json.Unmarshal(out, &res); err != nil {
			return s.WallMs, 0, fmt.Errorf("hook %s printed something that is not hook JSON: %v", event, err)
		}
	}
	// The other tool answers the same event right after, with the same
	// payload, so both see the same load.
	if other, ok := h.o.Compare[event]; ok {
		other.Dir, other.Stdin = h.dir, in
		prompt, _ := payload["prompt"].(string)
		session, _ := payload["session_id"].(string)
		so, _, err := other.Start(h.ctx, map[string]string{"run": fmt.Sprint(round), "dir": h.dir, "prompt": prompt, "session": session})
		if err != nil {
			return 0, 0, err
		}
		h.others[event] = append(h.others[event], so.WallMs)
	}
	return s.WallMs, len(res.HookSpecificOutput.AdditionalContext), nil
}

// hookFailure is the first failure the hooks logged in the vault at root:
// hooks fail open, so a failing hook would otherwise time as a fast one.
func hookFailure(root string) error {
	logs, _ := os.ReadFile(filepath.Join(root, index.CacheDir, "hooks.log"))
	if i := strings.Index(string(logs), "failed"); i >= 0 {
		line := string(logs[strings.LastIndexByte(string(logs[:i]), '\n')+1:])
		line, _, _ = strings.Cut(line, "\n")
		return fmt.Errorf("a hook failed: %s", line)
	}
	return nil
}
