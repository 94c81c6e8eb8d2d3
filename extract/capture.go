package extract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ParseFile reads a transcript of any supported format, told apart by its
// first line: Codex rollouts carry a payload, cairn's journal a redaction
// version, Claude Code transcripts a message type.
func ParseFile(path string) (*Transcript, string, error) {
	data, err := readTranscript(path)
	if err != nil {
		return nil, "", err
	}
	format := detect(data)
	var t *Transcript
	switch format {
	case "codex":
		t, err = ParseCodex(bytes.NewReader(data), path)
		return t, "codex", err
	case "journal":
		t, err = ReadJournal(path)
		agent := "claude-code"
		if t != nil && len(data) > 0 {
			var e JournalEntry
			if json.Unmarshal(firstLine(data), &e) == nil && e.Agent != "" {
				agent = e.Agent
			}
		}
		return t, agent, err
	default:
		t, err = ParseClaude(bytes.NewReader(data), path)
		return t, "claude-code", err
	}
}

// MaxTranscriptBytes bounds a transcript read whole: past it the journal
// stands in (hooks) or the user is told (extract).
const MaxTranscriptBytes = 128 << 20

// readTranscript reads a regular file of at most MaxTranscriptBytes. A
// hook payload can name anything: /dev/zero or /dev/urandom would be read
// forever, a FIFO would block, a directory or a device is no transcript.
func readTranscript(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("transcript %s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > MaxTranscriptBytes {
		return nil, fmt.Errorf("transcript %s is %d MB, more than the %d MB cairn reads", path, fi.Size()>>20, MaxTranscriptBytes>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The path may have been swapped between the two looks.
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return nil, fmt.Errorf("transcript %s changed while being opened", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxTranscriptBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxTranscriptBytes {
		return nil, fmt.Errorf("transcript %s grew past the %d MB cairn reads", path, MaxTranscriptBytes>>20)
	}
	return data, nil
}

func firstLine(data []byte) []byte {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
			return l
		}
	}
	return nil
}

func detect(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for i := 0; i < 20 && sc.Scan(); i++ {
		var probe map[string]json.RawMessage
		if json.Unmarshal(sc.Bytes(), &probe) != nil {
			continue
		}
		if _, ok := probe["payload"]; ok {
			return "codex"
		}
		if _, ok := probe["redaction"]; ok {
			return "journal"
		}
		if _, ok := probe["type"]; ok {
			return "claude"
		}
	}
	return "claude"
}

// Options configures Capture.
type Options struct {
	Vaults   map[schema.Scope]*vault.Vault
	Lookup   Lookup
	Redactor *Redactor
	Enricher Enricher // optional
	Meta     Meta
	Now      time.Time
	DryRun   bool
	Log      io.Writer // enrichment failures and notes; may be nil
}

// Result is what a capture found and did.
type Result struct {
	Candidates []Candidate `json:"candidates"`
	Plan       []Action    `json:"plan"`
	Applied    *Applied    `json:"applied,omitempty"`
}

// Run applies every extractor to a session.
func Run(s *Session) []Candidate {
	var out []Candidate
	for _, ex := range Extractors {
		out = append(out, ex.Run(s)...)
	}
	return out
}

// Capture extracts, optionally enriches, plans and applies.
func Capture(ctx context.Context, s *Session, o Options) (*Result, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	// Redact first: an enrichment model never sees a secret either.
	res := &Result{}
	for _, c := range Run(s) {
		res.Candidates = append(res.Candidates, redactCandidate(c, o.Redactor))
	}
	if o.Enricher != nil && len(res.Candidates) > 0 {
		enriched, err := o.Enricher.Enrich(ctx, res.Candidates)
		if err != nil {
			if o.Log != nil {
				fmt.Fprintf(o.Log, "enrichment failed, keeping the deterministic result: %v\n", err)
			}
		} else {
			res.Candidates = enriched
		}
	}
	return res, res.plan(ctx, o)
}

// CaptureCandidates plans and applies given candidates (signal phrases).
func CaptureCandidates(ctx context.Context, cands []Candidate, o Options) (*Result, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	// Redact before planning too: the vault holds redacted text, and a
	// candidate is compared with it as it will be written.
	res := &Result{}
	for _, c := range cands {
		res.Candidates = append(res.Candidates, redactCandidate(c, o.Redactor))
	}
	return res, res.plan(ctx, o)
}

func (res *Result) plan(ctx context.Context, o Options) error {
	plan, err := Plan(ctx, res.Candidates, o.Lookup)
	if err != nil {
		return err
	}
	res.Plan = plan
	if o.DryRun {
		// Show where a rewrite would land; Apply decides it again under
		// the lock.
		for i, a := range plan {
			if a.Op != OpRewrite || a.Target == nil || o.Vaults[a.Target.Scope] == nil {
				continue
			}
			v := o.Vaults[a.Target.Scope]
			if u, ok := findSessionFile(v, v.Root, *a.Target, o.Meta.Session); ok {
				plan[i].Target = &u
			}
		}
		return nil
	}
	res.Applied, err = Apply(ctx, o.Vaults, plan, o.Meta, o.Redactor, o.Now)
	return err
}
