package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Options configures a hook run.
type Options struct {
	Agent      string // claude-code or codex
	UserVault  string // user vault directory; "" for the default
	Executable string // cairn itself, for the detached finalizer
	Now        func() time.Time
	// LockTimeout bounds waits for the vault and cache locks: a hook must
	// never hold up the agent for long.
	LockTimeout time.Duration
}

// Hook latency budgets.
const (
	defaultLockTimeout = 3 * time.Second
	// minPromptScore is the full-text score below which a prompt's best
	// match is noise: a single common word matches about 1, a rare word
	// or two several.
	minPromptScore = 2.5
	// minPromptWords is how many content words a prompt needs before it is
	// worth a search ("ok", "thanks", "go on" are not).
	minPromptWords = 2
)

type handler struct {
	event   string
	p       *Payload
	o       Options
	project *vault.Vault
	user    *vault.Vault
	log     string
	in      io.Reader
	out     io.Writer
	red     *extract.Redactor
	ixs     []*index.Index
}

// Run handles one hook event. It always returns 0: failures are logged,
// never shown to the agent as errors, and never block it.
func Run(ctx context.Context, event string, stdin io.Reader, stdout io.Writer, o Options) (code int) {
	start := time.Now()
	h := &handler{event: event, o: o, in: stdin, out: stdout, log: fallbackLog()}
	// Until the payload names the project, log to the vault the agent
	// started us in: a garbage payload is reported where people look.
	if wd, err := os.Getwd(); err == nil {
		if root, err := vault.Find(wd); err == nil {
			h.log = filepath.Join(root, index.CacheDir, "hooks.log")
		}
	}
	if h.o.Now == nil {
		h.o.Now = time.Now
	}
	if h.o.LockTimeout <= 0 {
		h.o.LockTimeout = defaultLockTimeout
	}
	if h.o.Agent == "" {
		h.o.Agent = "claude-code"
	}
	defer func() {
		if r := recover(); r != nil {
			logf(h.log, "%s: panic: %v\n%s", event, r, debug.Stack())
		}
	}()
	err := h.run(ctx)
	session := ""
	if h.p != nil {
		session = h.p.SessionID
	}
	if err != nil {
		logf(h.log, "%s session=%s failed after %s: %v", event, session, time.Since(start).Round(time.Millisecond), err)
	} else {
		logf(h.log, "%s session=%s ok in %s", event, session, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

func (h *handler) run(ctx context.Context) error {
	if h.event == "finalize" {
		return h.finalize(ctx)
	}
	if _, ok := eventNames[h.event]; !ok {
		return fmt.Errorf("unknown hook event %q (known: %s)", h.event, strings.Join(Events, ", "))
	}
	p, err := ReadPayload(h.in)
	if err != nil {
		return err
	}
	h.p = p
	return h.handle(ctx)
}

func (h *handler) open() error {
	cwd := h.p.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	root, err := vault.Find(cwd)
	if err != nil {
		return err
	}
	if h.project, err = vault.Open(root, schema.ScopeProject); err != nil {
		return err
	}
	h.project.LockTimeout = h.o.LockTimeout
	h.log = filepath.Join(root, index.CacheDir, "hooks.log")
	dir := h.o.UserVault
	if dir == "" {
		dir, _ = vault.UserDir()
	}
	if dir != "" {
		if u, err := vault.Open(dir, schema.ScopeUser); err == nil {
			u.LockTimeout = h.o.LockTimeout
			if _, err := extract.GuardVault(u); err == nil {
				h.user = u
			}
		}
	}
	h.red, err = extract.GuardVault(h.project)
	return err
}

func (h *handler) handle(ctx context.Context) error {
	if err := h.open(); err != nil {
		return err
	}
	if err := h.journal(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	switch h.event {
	case "session-start":
		cfg := h.project.Config.Capture
		_, _ = extract.PruneJournal(h.project.Root, time.Duration(cfg.JournalDays)*24*time.Hour, int64(cfg.JournalMB)<<20)
		resume := h.p.Source == "resume" || h.p.Source == "compact"
		return h.inject(ctx, retrieve.PackRequest{SessionStart: true, Resume: resume, OnlyNew: h.p.Source == "resume", Session: h.p.SessionID, Record: true})
	case "user-prompt":
		if err := h.signals(ctx); err != nil {
			logf(h.log, "user-prompt: signal capture: %v", err)
		}
		if contentWords(h.p.Prompt) < minPromptWords {
			return nil
		}
		return h.inject(ctx, retrieve.PackRequest{Task: h.p.Prompt, Sections: []string{"must", "task"}, OnlyNew: true, Session: h.p.SessionID,
			Budget: h.project.Config.Hooks.PromptBudget, Record: true, MinTextScore: minPromptScore})
	case "post-tool":
		return nil // the journal is the record; extraction waits for stop
	case "pre-compact", "stop":
		if h.p.StopActive || !h.project.Config.Hooks.Capture {
			return nil
		}
		return h.capture(ctx)
	case "session-end":
		return h.detachFinalize()
	}
	return nil
}

func (h *handler) journal() error {
	return extract.AppendJournal(h.project.Root, extract.JournalEntry{Time: h.o.Now(), Event: h.event, Agent: h.o.Agent,
		Session: h.p.SessionID, Cwd: h.p.Cwd, Transcript: h.p.TranscriptPath, Data: h.p.data(h.event)}, h.red)
}

// indexes opens the vaults' search caches once per hook run.
func (h *handler) indexes() []*index.Index {
	if h.ixs != nil {
		return h.ixs
	}
	var out []*index.Index
	for _, v := range []*vault.Vault{h.project, h.user} {
		if v == nil {
			continue
		}
		ix, err := index.Open(v, index.Options{LockTimeout: h.o.LockTimeout, Warn: func(msg string) { logf(h.log, "index: %s", msg) }})
		if err == nil {
			out = append(out, ix)
		}
	}
	h.ixs = out
	return out
}

// inject builds a pack and prints it as the event's additional context;
// an empty pack prints nothing.
func (h *handler) inject(ctx context.Context, req retrieve.PackRequest) error {
	r := retrieve.New(h.indexes())
	r.Now = h.o.Now
	p, err := r.Pack(ctx, req)
	if err != nil {
		return err
	}
	items := 0
	for _, s := range p.Sections {
		items += len(s.Items)
		if s.Text != "" {
			items++
		}
	}
	if items == 0 {
		return nil
	}
	var out Output
	out.HookSpecificOutput.HookEventName = eventNames[h.event]
	out.HookSpecificOutput.AdditionalContext = fit(p.Markdown)
	return json.NewEncoder(h.out).Encode(out)
}

// signals captures what a prompt asks to keep, at once.
func (h *handler) signals(ctx context.Context) error {
	ev := extract.Event{Kind: extract.EventText, Role: "user", Human: true, Text: h.p.Prompt, Session: h.p.SessionID, Time: h.o.Now()}
	cands := extract.Signals(ev)
	if len(cands) == 0 {
		return nil
	}
	res, err := extract.CaptureCandidates(ctx, cands, h.captureOptions())
	if err != nil || res.Applied == nil {
		return err
	}
	// What the prompt itself said is no news to the session: mark it shown
	// so the prompt's own pack does not hand it back.
	by := map[schema.Scope][]string{}
	for _, u := range res.Applied.Written {
		by[u.Scope] = append(by[u.Scope], u.String())
	}
	for _, ix := range h.indexes() {
		if uris := by[ix.Scope()]; len(uris) > 0 {
			_ = ix.RecordAccess(index.Access{Time: h.o.Now(), Kind: "capture", Session: h.p.SessionID, URIs: uris})
		}
	}
	return nil
}

func (h *handler) captureOptions() extract.Options {
	vaults := map[schema.Scope]*vault.Vault{schema.ScopeProject: h.project}
	if h.user != nil {
		vaults[schema.ScopeUser] = h.user
	}
	r := retrieve.New(h.indexes())
	r.Now = h.o.Now
	o := extract.Options{Vaults: vaults, Lookup: extract.IndexLookup{R: r}, Redactor: h.red, Now: h.o.Now(),
		Meta: extract.Meta{Agent: h.o.Agent, Session: h.p.SessionID, Transcript: h.p.TranscriptPath,
			CodeCommit: vault.ProjectHead(h.project.ProjectDir()), Source: h.o.Agent + ":" + h.event}}
	if e, err := extract.NewEnricher(h.project.Config.Capture.Enrich); err == nil && e != nil {
		o.Enricher = e
	}
	return o
}

// capture extracts what the session produced so far and commits it. The
// transcript is the full record when it can be read; the journal stands
// in when it cannot (it is written asynchronously and may lag).
func (h *handler) capture(ctx context.Context) error {
	t, err := h.transcript()
	if err != nil {
		return err
	}
	s := extract.Assemble(t, h.o.Agent)
	if s.ID == "" {
		s.ID = h.p.SessionID
	}
	res, err := extract.Capture(ctx, s, h.captureOptions())
	if err != nil {
		return err
	}
	if res.Applied != nil {
		logf(h.log, "%s session=%s captured: %v, commits %v", h.event, h.p.SessionID, res.Applied.ByOp, res.Applied.Commits)
		// The code moved on during the session: refresh which memories
		// it may have made stale, for the next session's pack. It walks
		// project history, so only the detached session-end finalizer does
		// it, never a Stop hook the agent waits on after every turn.
		if h.event == "session-end" {
			if _, err := retrieve.RefreshStale(ctx, h.indexes()); err != nil {
				logf(h.log, "%s: staleness check: %v", h.event, err)
			}
		}
	}
	return nil
}

func (h *handler) transcript() (*extract.Transcript, error) {
	var t *extract.Transcript
	if h.p.TranscriptPath != "" {
		if tr, _, err := extract.ParseFile(h.p.TranscriptPath); err == nil && len(tr.Events) > 0 {
			t = tr
		}
	}
	if t == nil {
		tr, err := extract.ReadJournal(extract.JournalPath(h.project.Root, h.p.SessionID))
		if err != nil {
			return nil, fmt.Errorf("no transcript and no journal for session %s: %w", h.p.SessionID, err)
		}
		t = tr
	}
	if t.Session == "" {
		t.Session = h.p.SessionID
	}
	if t.Cwd == "" {
		t.Cwd = h.p.Cwd
	}
	// On stop the transcript may not have the last reply yet.
	if m := strings.TrimSpace(h.p.LastAssistant); m != "" {
		last := ""
		for _, e := range t.Events {
			if e.Kind == extract.EventText && e.Role == "assistant" {
				last = e.Text
			}
		}
		if strings.TrimSpace(last) != m {
			t.Events = append(t.Events, extract.Event{Kind: extract.EventText, Role: "assistant", Text: m, Session: t.Session, Time: h.o.Now()})
		}
	}
	return t, nil
}

// detachFinalize hands the final capture to a detached process: session
// end hooks share a budget of about a second and a half.
func (h *handler) detachFinalize() error {
	if h.o.Executable == "" || !h.project.Config.Hooks.Capture {
		return nil
	}
	dir := filepath.Join(h.project.Root, index.CacheDir, "finalize")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "payload-*.json")
	if err != nil {
		return err
	}
	if err := json.NewEncoder(f).Encode(h.p); err != nil {
		f.Close()
		return err
	}
	f.Close()
	cmd := exec.Command(h.o.Executable, "hook", "finalize", "--agent", h.o.Agent, "--payload", f.Name())
	cmd.Dir = h.project.Root
	devnull, _ := os.Open(os.DevNull)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, nil, nil
	proc, err := startDetached(cmd)
	if err != nil {
		return fmt.Errorf("start the finalizer: %w", err)
	}
	return proc.Release()
}

// PayloadFile is set by `cairn hook finalize --payload`.
var PayloadFile string

func (h *handler) finalize(ctx context.Context) error {
	if PayloadFile == "" {
		return errors.New("finalize needs --payload")
	}
	defer os.Remove(PayloadFile)
	data, err := os.ReadFile(PayloadFile)
	if err != nil {
		return err
	}
	var p Payload
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	h.p = &p
	h.event = "session-end"
	if err := h.open(); err != nil {
		return err
	}
	return h.capture(ctx)
}

// contentWords counts the words of a prompt worth searching for.
func contentWords(s string) int {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ".,;:!?\"'()[]{}")
		if len(w) > 2 && !smallTalk[w] {
			n++
		}
	}
	return n
}

var smallTalk = map[string]bool{"the": true, "and": true, "yes": true, "yeah": true, "thanks": true, "thank": true, "you": true, "please": true,
	"okay": true, "sure": true, "go": true, "ahead": true, "continue": true, "great": true, "good": true, "nice": true, "cool": true, "that": true,
	"this": true, "now": true, "lgtm": true, "done": true, "with": true, "for": true, "can": true}
