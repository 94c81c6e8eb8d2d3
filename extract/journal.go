package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// JournalDir is the journal's directory inside a vault.
const JournalDir = ".journal"

// maxJournalString bounds one string in a journal entry: a tool's output
// can be a whole file; its head and tail tell what happened.
const maxJournalString = 8 << 10

// JournalEntry is one hook event, redacted, as the journal stores it.
type JournalEntry = transcript.JournalEntry

// JournalPath is the journal file of a session.
func JournalPath(vaultRoot, session string) string {
	name := schema.Slugify(session)
	if session == "" {
		name = "no-session"
	}
	return filepath.Join(vaultRoot, JournalDir, name+".jsonl")
}

// AppendJournal redacts an entry and appends it to its session's journal
// with one write and an fsync: the journal is the replayable truth.
func AppendJournal(vaultRoot string, e JournalEntry, red *Redactor) error {
	e.Data = redactValue(e.Data, red).(map[string]any)
	e.Session, e.Cwd, e.Transcript = red.CleanLine(e.Session), schema.CleanText(e.Cwd), schema.CleanText(e.Transcript)
	e.Redaction = RedactionVersion
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal entry: %w", err)
	}
	path := JournalPath(vaultRoot, e.Session)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// redactValue redacts every string in a decoded JSON value and bounds
// its size; redacting values, not the serialized text, keeps it JSON.
func redactValue(v any, red *Redactor) any {
	switch t := v.(type) {
	case nil:
		return map[string]any{}
	case string:
		return bound(red.Clean(t))
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = redactValue(x, red)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = redactValue(x, red)
		}
		return out
	default:
		return t
	}
}

func bound(s string) string {
	if len(s) <= maxJournalString {
		return s
	}
	head, tail := s[:maxJournalString/2], s[len(s)-maxJournalString/2:]
	for !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	return head + fmt.Sprintf("\n… [%d bytes cut] …\n", len(s)-len(head)-len(tail)) + tail
}

// PruneJournal removes journals older than maxAge, then the oldest ones
// until the rest fit in maxBytes.
func PruneJournal(vaultRoot string, maxAge time.Duration, maxBytes int64) (removed int, err error) {
	dir := filepath.Join(vaultRoot, JournalDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	type file struct {
		path string
		mod  time.Time
		size int64
	}
	var files []file
	var total int64
	cutoff := time.Now().Add(-maxAge)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if maxAge > 0 && fi.ModTime().Before(cutoff) {
			if os.Remove(p) == nil {
				removed++
			}
			continue
		}
		files = append(files, file{p, fi.ModTime(), fi.Size()})
		total += fi.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if maxBytes <= 0 || total <= maxBytes {
			break
		}
		if os.Remove(f.path) == nil {
			removed++
			total -= f.size
		}
	}
	return removed, nil
}
