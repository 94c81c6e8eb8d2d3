package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The access log records every retrieval that reached an agent or a
// person: packs, searches, prompt injections. It feeds the access-frequency
// signal, lets a session be shown only what is new to it, and answers
// "why did the agent see this" afterwards. It lives beside the generations
// so rebuilds keep it; deleting the cache forgets it.
//
// access.log is appended by any process, one line per access written with
// a single write(2) on an O_APPEND file:
//
//	<unix ns> TAB <kind> TAB <session> TAB <chars> TAB <uri>,<uri>,...
//
// When it grows past accessCompactAt it is folded into access.sum (one line
// per URI: uri TAB count TAB last unix ns) and the log keeps only its
// recent tail, enough for the novelty of sessions still running.
const (
	accessLog       = "access.log"
	accessSum       = "access.sum"
	accessCompactAt = 1 << 20
	accessKeepTail  = 48 * time.Hour
)

// Access is one retrieval that reached someone.
type Access struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"` // pack, search, prompt, get
	Session string    `json:"session,omitempty"`
	Chars   int       `json:"chars,omitempty"`
	URIs    []string  `json:"uris"`
}

// AccessStats are the access counts and times of memories.
type AccessStats struct {
	Count map[string]int
	Last  map[string]time.Time
	// Log holds the recent accesses, oldest first.
	Log []Access
}

// ShownIn returns the URIs a session was already shown, with when.
func (s *AccessStats) ShownIn(session string) map[string]time.Time {
	out := map[string]time.Time{}
	if session == "" {
		return out
	}
	for _, a := range s.Log {
		if a.Session != session {
			continue
		}
		for _, u := range a.URIs {
			out[u] = a.Time
		}
	}
	return out
}

func clean(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", ",", " ").Replace(s)
}

// RecordAccess appends an access to the log.
func (ix *Index) RecordAccess(a Access) error {
	if err := os.MkdirAll(ix.l.dir, 0o755); err != nil {
		return err
	}
	if a.Time.IsZero() {
		a.Time = time.Now()
	}
	uris := make([]string, len(a.URIs))
	for i, u := range a.URIs {
		uris[i] = clean(u)
	}
	line := fmt.Sprintf("%d\t%s\t%s\t%d\t%s\n", a.Time.UnixNano(), clean(a.Kind), clean(a.Session), a.Chars, strings.Join(uris, ","))
	f, err := os.OpenFile(ix.l.path(accessLog), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write([]byte(line))
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	if cerr != nil {
		return cerr
	}
	if fi, err := os.Stat(ix.l.path(accessLog)); err == nil && fi.Size() > accessCompactAt {
		return ix.compactAccess(context.Background())
	}
	return nil
}

// AccessStats reads the summary and the log.
func (ix *Index) AccessStats() (*AccessStats, error) {
	st := &AccessStats{Count: map[string]int{}, Last: map[string]time.Time{}}
	if err := readLines(ix.l.path(accessSum), func(l string) {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			return
		}
		n, _ := strconv.Atoi(f[1])
		t, _ := strconv.ParseInt(f[2], 10, 64)
		st.Count[f[0]] += n
		if tt := time.Unix(0, t); tt.After(st.Last[f[0]]) {
			st.Last[f[0]] = tt
		}
	}); err != nil {
		return nil, err
	}
	err := readLines(ix.l.path(accessLog), func(l string) {
		a, ok := parseAccess(l)
		if !ok {
			return // a torn or foreign line is skipped, never fatal
		}
		st.Log = append(st.Log, a)
		for _, u := range a.URIs {
			st.Count[u]++
			if a.Time.After(st.Last[u]) {
				st.Last[u] = a.Time
			}
		}
	})
	return st, err
}

func parseAccess(l string) (Access, bool) {
	f := strings.Split(l, "\t")
	if len(f) != 5 {
		return Access{}, false
	}
	t, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return Access{}, false
	}
	chars, _ := strconv.Atoi(f[3])
	a := Access{Time: time.Unix(0, t), Kind: f[1], Session: f[2], Chars: chars}
	if f[4] != "" {
		a.URIs = strings.Split(f[4], ",")
	}
	return a, true
}

func readLines(path string, fn func(string)) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			fn(l)
		}
	}
	return nil
}

// compactAccess folds old log lines into the summary, under the writer
// lock so two processes do not fold the same lines twice.
func (ix *Index) compactAccess(ctx context.Context) error {
	wl, err := ix.writerLock(ctx)
	if err != nil {
		return err
	}
	defer wl.unlock()
	if fi, err := os.Stat(ix.l.path(accessLog)); err != nil || fi.Size() <= accessCompactAt {
		return nil // someone else compacted it
	}
	st, err := ix.AccessStats()
	if err != nil {
		return err
	}
	cutoff := time.Now().Add(-accessKeepTail)
	var keep []Access
	for _, a := range st.Log {
		if a.Time.After(cutoff) {
			keep = append(keep, a)
		}
	}
	// The summary holds every count not in the kept tail.
	var sum strings.Builder
	uris := make([]string, 0, len(st.Count))
	for u := range st.Count {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	kept := map[string]int{}
	for _, a := range keep {
		for _, u := range a.URIs {
			kept[u]++
		}
	}
	for _, u := range uris {
		if n := st.Count[u] - kept[u]; n > 0 {
			fmt.Fprintf(&sum, "%s\t%d\t%d\n", u, n, st.Last[u].UnixNano())
		}
	}
	var tail strings.Builder
	for _, a := range keep {
		fmt.Fprintf(&tail, "%d\t%s\t%s\t%d\t%s\n", a.Time.UnixNano(), a.Kind, a.Session, a.Chars, strings.Join(a.URIs, ","))
	}
	if err := writeAtomic(ix.l.path(accessSum), []byte(sum.String())); err != nil {
		return err
	}
	// Appends that raced with the fold land in the replaced file and are
	// lost; they are statistics, and the window is a few microseconds.
	return writeAtomic(ix.l.path(accessLog), []byte(tail.String()))
}
