package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairnmem/cairn/transcript"
)

// BackfillOptions configures learning from past sessions.
type BackfillOptions struct {
	// Capture is what each session is captured with; Meta's session and
	// transcript are set per session.
	Capture Options
	// Ledger is the file that remembers which transcripts were captured,
	// at which size, so a second run skips them. "" keeps none.
	Ledger string
	// Force captures sessions the ledger says are done.
	Force    bool
	Progress func(done, total int, f transcript.Found)
}

// BackfillReport says what a backfill did.
type BackfillReport struct {
	Sessions int        `json:"sessions"`
	Captured int        `json:"captured"`
	Skipped  int        `json:"skipped"` // already captured, unchanged
	Empty    int        `json:"empty"`   // nothing worth keeping
	Failed   []string   `json:"failed,omitempty"`
	ByOp     map[Op]int `json:"by_op"`
	Commits  int        `json:"commits"`
	Results  []*Result  `json:"-"`
}

type ledgerEntry struct {
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime"`
	Session string `json:"session"`
}

// Backfill captures past sessions, oldest first, each through the same
// capture a hook runs. A transcript captured before at the same size and
// time is skipped, so a second run writes nothing; one that grew since is
// captured again (its summary is rewritten, the rest deduplicated).
func Backfill(ctx context.Context, found []transcript.Found, o BackfillOptions) (*BackfillReport, error) {
	ledger := readLedger(o.Ledger)
	rep := &BackfillReport{Sessions: len(found), ByOp: map[Op]int{}}
	for i, f := range found {
		if o.Progress != nil {
			o.Progress(i, len(found), f)
		}
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		fi, err := os.Stat(f.Path)
		if err != nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf("%s: %v", f.Path, err))
			continue
		}
		entry := ledgerEntry{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Session: f.ID}
		if old, ok := ledger[f.Path]; ok && old == entry && !o.Force {
			rep.Skipped++
			continue
		}
		res, err := backfillOne(ctx, f, o.Capture)
		if err != nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf("%s: %v", f.Path, err))
			continue
		}
		rep.Captured++
		rep.Results = append(rep.Results, res)
		if res.Applied != nil {
			for op, n := range res.Applied.ByOp {
				rep.ByOp[op] += n
			}
			rep.Commits += len(res.Applied.Commits)
		}
		if len(res.Candidates) == 0 {
			rep.Empty++
		}
		if !o.Capture.DryRun {
			ledger[f.Path] = entry
			if err := writeLedger(o.Ledger, ledger); err != nil {
				return rep, err
			}
		}
	}
	if o.Progress != nil {
		o.Progress(len(found), len(found), transcript.Found{})
	}
	return rep, nil
}

func backfillOne(ctx context.Context, f transcript.Found, o Options) (*Result, error) {
	s, err := transcript.Read(f.Path)
	if err != nil {
		return nil, err
	}
	o.Meta.Agent, o.Meta.Session, o.Meta.Transcript = s.Agent, s.ID, f.Path
	if o.Meta.Source == "" {
		o.Meta.Source = "backfill"
	}
	o.Now = time.Now()
	return CaptureSession(ctx, s, o)
}

func readLedger(path string) map[string]ledgerEntry {
	out := map[string]ledgerEntry{}
	if path == "" {
		return out
	}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &out) // a damaged ledger only costs a recapture
	}
	return out
}

// writeLedger replaces the ledger atomically.
func writeLedger(path string, l map[string]ledgerEntry) error {
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".backfill-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
