package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// Verdicts of a written memory.
const (
	Keep      = "keep"      // holds something that mattered
	Useful    = "useful"    // true and of some use
	Delete    = "delete"    // must not have been written
	Unmatched = "unmatched" // labeled session, but no label says what it is
)

// Memory is one written memory and the verdict on it.
type Memory struct {
	URI     string   `json:"uri"`
	Kind    string   `json:"kind"`
	Title   string   `json:"title"`
	Verdict string   `json:"verdict"`
	Items   []string `json:"items,omitempty"`  // label items it holds
	Checks  []string `json:"checks,omitempty"` // failed checks
	text    string
}

// Failure is one thing that went wrong, by class.
type Failure struct {
	Class string `json:"class"`
	Text  string `json:"text"`
}

// SessionReport is one session's outcome.
type SessionReport struct {
	File      string    `json:"file"`
	Agent     string    `json:"agent"`
	Split     string    `json:"split,omitempty"`
	Bytes     int64     `json:"bytes"`
	Millis    float64   `json:"ms"`
	Error     string    `json:"error,omitempty"`
	Written   []Memory  `json:"written"`
	Found     []string  `json:"found,omitempty"`  // important items captured
	Missed    []Item    `json:"missed,omitempty"` // important items not captured
	Important int       `json:"important"`
	Failures  []Failure `json:"failures,omitempty"`
	Labeled   bool      `json:"labeled"`
	Vault     string    `json:"vault,omitempty"` // the project vault it was captured into
}

// Totals aggregate sessions.
type Totals struct {
	Sessions  int               `json:"sessions"`
	Written   int               `json:"written"`
	Verdicts  map[string]int    `json:"verdicts"`
	Important int               `json:"important"`
	Found     int               `json:"found"`
	Precision float64           `json:"precision"`    // (keep + useful) / written
	Deletable float64           `json:"delete_share"` // delete / written
	Recall    float64           `json:"recall"`       // found / important
	Failures  map[string]int    `json:"failures"`
	ByClass   map[string][2]int `json:"recall_by_class"` // found, total
	Errors    int               `json:"errors"`
}

// Report is a whole run.
type Report struct {
	Sessions   []SessionReport   `json:"sessions"`
	Overall    Totals            `json:"overall"`
	By         map[string]Totals `json:"by"` // agent, split, agent/split
	MaxMsPerMB float64           `json:"max_ms_per_mb"`
	SlowestMs  float64           `json:"slowest_ms"`
}

func score(sr *SessionReport, s *transcript.Session, l *Label, written, known []*schema.Memory) {
	sr.Labeled = l != nil
	for _, m := range written {
		mem := Memory{URI: m.URI.String(), Kind: string(m.Kind), Title: m.Title, text: m.Title + "\n" + m.Summary + "\n" + m.Body}
		mem.Checks = checks(m, s)
		for _, c := range mem.Checks {
			sr.Failures = append(sr.Failures, Failure{Class: c, Text: mem.URI + ": " + m.Title})
		}
		mem.Verdict = Unmatched
		if l != nil {
			for _, it := range l.Important {
				if it.matches(mem.Kind, mem.text) {
					mem.Items, mem.Verdict = append(mem.Items, it.ID), Keep
				}
			}
			if mem.Verdict != Keep {
				for _, it := range l.Acceptable {
					if it.matches(mem.Kind, mem.text) {
						mem.Items, mem.Verdict = append(mem.Items, it.ID), Useful
					}
				}
			}
			for _, it := range l.Forbid {
				if it.matches(mem.Kind, mem.text) {
					mem.Items, mem.Verdict = append(mem.Items, it.ID), Delete
					sr.Failures = append(sr.Failures, Failure{Class: it.Class, Text: mem.URI + ": " + m.Title + " (" + it.ID + ")"})
				}
			}
		}
		if slices.ContainsFunc(mem.Checks, deletable) {
			mem.Verdict = Delete
		}
		sr.Written = append(sr.Written, mem)
	}
	if l == nil {
		return
	}
	sr.Important = len(l.Important)
	var texts []Memory
	texts = append(texts, sr.Written...)
	for _, m := range known {
		texts = append(texts, Memory{Kind: string(m.Kind), text: m.Title + "\n" + m.Summary + "\n" + m.Body})
	}
	for _, it := range l.Important {
		found := false
		for _, m := range texts {
			if it.matches(m.Kind, m.text) {
				found = true
				break
			}
		}
		if found {
			sr.Found = append(sr.Found, it.ID)
		} else {
			sr.Missed = append(sr.Missed, it)
		}
	}
}

func (t *Totals) add(sr SessionReport, l map[string][2]int) {
	t.Sessions++
	if t.Verdicts == nil {
		t.Verdicts, t.Failures, t.ByClass = map[string]int{}, map[string]int{}, map[string][2]int{}
	}
	if sr.Error != "" {
		t.Errors++
	}
	t.Written += len(sr.Written)
	for _, m := range sr.Written {
		t.Verdicts[m.Verdict]++
	}
	for _, f := range sr.Failures {
		t.Failures[f.Class]++
	}
	t.Important += sr.Important
	t.Found += len(sr.Found)
	for class, v := range l {
		c := t.ByClass[class]
		t.ByClass[class] = [2]int{c[0] + v[0], c[1] + v[1]}
	}
}

func (t *Totals) ratios() {
	if t.Written > 0 {
		t.Precision = float64(t.Verdicts[Keep]+t.Verdicts[Useful]) / float64(t.Written)
		t.Deletable = float64(t.Verdicts[Delete]) / float64(t.Written)
	}
	if t.Important > 0 {
		t.Recall = float64(t.Found) / float64(t.Important)
	}
}

// classes counts a session's important items found and labeled, by class.
func classes(sr SessionReport, l *Label) map[string][2]int {
	out := map[string][2]int{}
	if l == nil {
		return out
	}
	found := map[string]bool{}
	for _, id := range sr.Found {
		found[id] = true
	}
	for _, it := range l.Important {
		c := out[it.Class]
		c[1]++
		if found[it.ID] {
			c[0]++
		}
		out[it.Class] = c
	}
	return out
}

// totalWith aggregates; labels give the per-class recall.
func (r *Report) totalWith(labels map[string]*Label) {
	r.By = map[string]Totals{}
	r.Overall = Totals{}
	for _, sr := range r.Sessions {
		cl := classes(sr, labels[sr.File])
		r.Overall.add(sr, cl)
		keys := []string{sr.Agent}
		if sr.Split != "" {
			keys = append(keys, sr.Split, sr.Agent+"/"+sr.Split)
		}
		for _, k := range keys {
			t := r.By[k]
			t.add(sr, cl)
			r.By[k] = t
		}
		if sr.Bytes > 0 {
			if v := sr.Millis / (float64(sr.Bytes) / (1 << 20)); v > r.MaxMsPerMB && sr.Bytes > 256<<10 {
				r.MaxMsPerMB = v
			}
		}
		r.SlowestMs = max(r.SlowestMs, sr.Millis)
	}
	r.Overall.ratios()
	for k, t := range r.By {
		t.ratios()
		r.By[k] = t
	}
}

// Print writes the report as text: a line per session, totals by agent
// and split, failures by class; with detail, every memory and miss.
func (r *Report) Print(w io.Writer, detail bool) {
	fmt.Fprintf(w, "%-44s %6s %5s %5s %5s %5s %5s %7s %8s\n", "session", "agent", "mems", "keep", "use", "del", "?", "recall", "ms")
	for _, sr := range r.Sessions {
		v := map[string]int{}
		for _, m := range sr.Written {
			v[m.Verdict]++
		}
		rec := "-"
		if sr.Labeled && sr.Important > 0 {
			rec = fmt.Sprintf("%d/%d", len(sr.Found), sr.Important)
		}
		name := sr.File
		if len(name) > 44 {
			name = name[:44]
		}
		fmt.Fprintf(w, "%-44s %6s %5d %5d %5d %5d %5d %7s %8.0f\n", name, short(sr.Agent), len(sr.Written), v[Keep], v[Useful], v[Delete], v[Unmatched], rec, sr.Millis)
		if sr.Error != "" {
			fmt.Fprintf(w, "    error: %s\n", sr.Error)
		}
		if detail {
			for _, m := range sr.Written {
				fmt.Fprintf(w, "    %-9s %-10s %s  %s %s\n", m.Verdict, m.Kind, m.Title, strings.Join(m.Items, ","), strings.Join(m.Checks, ","))
			}
			for _, it := range sr.Missed {
				fmt.Fprintf(w, "    missed    %-10s %s: %s\n", it.Class, it.ID, it.Note)
			}
		}
	}
	fmt.Fprintln(w)
	keys := sortedKeys(r.By)
	fmt.Fprintf(w, "%-22s %8s %8s %9s %9s %8s %7s\n", "", "sessions", "written", "precision", "delete", "recall", "errors")
	for _, k := range append(keys, "overall") {
		t := r.Overall
		if k != "overall" {
			t = r.By[k]
		}
		fmt.Fprintf(w, "%-22s %8d %8d %9.2f %9.2f %8s %7d\n", k, t.Sessions, t.Written, t.Precision, t.Deletable, ratio(t.Found, t.Important), t.Errors)
	}
	if len(r.Overall.ByClass) > 0 {
		fmt.Fprintf(w, "\nrecall by class:")
		for _, c := range sortedKeys(r.Overall.ByClass) {
			v := r.Overall.ByClass[c]
			fmt.Fprintf(w, " %s %d/%d", c, v[0], v[1])
		}
		fmt.Fprintln(w)
	}
	if len(r.Overall.Failures) > 0 {
		fmt.Fprintf(w, "failures by class:")
		for _, c := range sortedKeys(r.Overall.Failures) {
			fmt.Fprintf(w, " %s %d", c, r.Overall.Failures[c])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "capture time: slowest session %.0f ms, at most %.0f ms per MB of transcript\n", r.SlowestMs, r.MaxMsPerMB)
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

func short(agent string) string {
	if agent == "claude-code" {
		return "claude"
	}
	return agent
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
