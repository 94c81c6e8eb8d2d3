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

	"github.com/cairnmem/cairn/app"
	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
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
	// Payload is the payload file of the detached finalizer
	// (`cairn hook finalize --payload`).
	Payload string
}

// defaultLockTimeout is the hooks' latency budget for locks.
const defaultLockTimeout = 3 * time.Second

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
	app     *app.App
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
	// The session id names the journal file and lands in commit trailers,
	// frontmatter, the access log and this log: no control bytes, no
	// secrets.
	p.SessionID = extract.SanitizeLine(p.SessionID)
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
	h.log = filepath.Join(root, index.CacheDir, "hooks.log")
	h.app = app.New(app.Options{Vault: root, UserVault: h.o.UserVault, Source: h.o.Agent, LockTimeout: h.o.LockTimeout, Now: h.o.Now,
		Warn: func(msg string) { logf(h.log, "%s", msg) }})
	if h.project, err = h.app.Project(); err != nil {
		return err
	}
	// A user vault that cannot be opened costs its memories, never the
	// project's: hooks fail open.
	h.user, _ = h.app.User()
	h.red = h.app.Redactor(schema.ScopeProject)
	return nil
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
		return h.inject(ctx, retrieve.PackRequest{Task: h.p.Prompt, Prompt: true, Sections: []string{"must", "task"}, OnlyNew: true, Session: h.p.SessionID,
			Budget: h.project.Config.Hooks.PromptBudget, Record: true})
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
		if ix, err := h.app.Index(v); err == nil {
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
	cands := extract.Signals(h.p.Prompt, "", h.o.Now())
	if len(cands) == 0 {
		return nil
	}
	o, err := h.captureOptions()
	if err != nil {
		return err
	}
	res, err := extract.CaptureCandidates(ctx, cands, o)
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

func (h *handler) captureOptions() (extract.Options, error) {
	return h.app.CaptureOptions(extract.Meta{Agent: h.o.Agent, Session: h.p.SessionID, Transcript: h.p.TranscriptPath,
		CodeCommit: h.app.CodeCommit(), Source: h.o.Agent + ":" + h.event})
}

// capture extracts what the session produced so far and commits it. The
// transcript is the full record when it can be read; the journal stands
// in when it cannot (it is written asynchronously and may lag).
func (h *handler) capture(ctx context.Context) error {
	s, err := h.transcript()
	if err != nil {
		return err
	}
	o, err := h.captureOptions()
	if err != nil {
		return err
	}
	res, err := extract.CaptureSession(ctx, s, o)
	if err != nil {
		return err
	}
	for _, d := range res.Dropped {
		if d.Candidate.Confidence >= 0.5 {
			logf(h.log, "%s session=%s not written: %s %q: %s", h.event, h.p.SessionID, d.Candidate.Kind, d.Candidate.Title, d.Reason)
		}
	}
	if res.Applied != nil {
		logf(h.log, "%s session=%s captured: %v, commits %v", h.event, h.p.SessionID, res.Applied.ByOp, res.Applied.Commits)
		for _, n := range res.Applied.Notes {
			logf(h.log, "%s session=%s: %s", h.event, h.p.SessionID, n)
		}
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

// transcript reads the session: the agent's transcript, or cairn's
// journal of the session when the transcript cannot be read.
func (h *handler) transcript() (*transcript.Session, error) {
	var s *transcript.Session
	if h.p.TranscriptPath != "" {
		t, err := transcript.Read(h.p.TranscriptPath)
		if err == nil && len(t.Turns) > 0 {
			s = t
		} else if err != nil {
			logf(h.log, "%s session=%s: transcript: %v; reading the journal", h.event, h.p.SessionID, err)
		}
	}
	if s == nil {
		t, err := transcript.Read(extract.JournalPath(h.project.Root, h.p.SessionID))
		if err != nil {
			return nil, fmt.Errorf("no transcript and no journal for session %s: %w", h.p.SessionID, err)
		}
		s = t
	}
	if s.ID == "" {
		s.ID = h.p.SessionID
	}
	if s.Cwd == "" {
		s.Cwd = h.p.Cwd
	}
	if s.Agent == "" || s.Format == "journal" {
		s.Agent = h.o.Agent
	}
	// On stop the transcript may not have the last reply yet.
	s.AddReply(h.p.LastAssistant, h.o.Now())
	return s, nil
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
	// The payload waits on disk for the finalizer: nothing in it unredacted.
	p := *h.p
	p.Prompt, p.LastAssistant = h.red.Clean(p.Prompt), h.red.Clean(p.LastAssistant)
	p.ToolInput, p.ToolResponse = nil, nil
	if err := json.NewEncoder(f).Encode(&p); err != nil {
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

// finalizeDeadline bounds the detached finalizer: nobody waits for it, so
// nothing else would stop a capture that runs away (it once grew to 16 GB
// in 73 s). Work that ignores the context is stopped hard a little later;
// a write cut short that way is finished by the next writer.
var (
	finalizeDeadline = 2 * time.Minute
	finalizeGrace    = 15 * time.Second
)

// hardStop ends the finalizer process; tests replace it.
var hardStop = func() { os.Exit(0) }

func (h *handler) finalize(ctx context.Context) error {
	if h.o.Payload == "" {
		return errors.New("finalize needs --payload")
	}
	ctx, cancel := context.WithTimeout(ctx, finalizeDeadline)
	defer cancel()
	stop := time.AfterFunc(finalizeDeadline+finalizeGrace, func() {
		logf(h.log, "finalize: still running after %s; stopped", finalizeDeadline+finalizeGrace)
		hardStop()
	})
	defer stop.Stop()
	defer os.Remove(h.o.Payload)
	data, err := os.ReadFile(h.o.Payload)
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
	err = h.capture(ctx)
	// The next session's pack, built now that this session's memories are
	// written, so its session-start only reads it.
	r := retrieve.New(h.indexes())
	r.Now = h.o.Now
	if werr := r.Warm(ctx); werr != nil {
		logf(h.log, "finalize: prebuilding the next session's pack: %v", werr)
	}
	// Pack the loose git objects the commits left, once there are many.
	for _, v := range []*vault.Vault{h.project, h.user} {
		if v == nil {
			continue
		}
		if rep, perr := v.PackIfNeeded(ctx); perr != nil {
			logf(h.log, "finalize: pack git objects: %v", perr)
		} else if rep != nil {
			logf(h.log, "finalize: packed %d loose git objects", rep.LooseBefore-rep.LooseAfter)
		}
	}
	return err
}
