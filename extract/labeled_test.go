package extract

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
)

// labeledKinds are the kinds the labeled set judges; outcomes and session
// summaries are structural (every working session has them) and tested
// apart.
var labeledKinds = map[string]bool{"decision": true, "constraint": true, "preference": true, "thread": true, "case": true}

type expectation struct {
	Kind     string   `json:"kind"`
	Contains []string `json:"contains"`
}

func (e expectation) matches(c Candidate) bool {
	if string(c.Kind) != e.Kind {
		return false
	}
	text := strings.ToLower(c.Title + " " + c.Body)
	for _, w := range e.Contains {
		if !strings.Contains(text, strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// TestLabeledPrecisionRecall runs the extractors on transcript excerpts
// labeled with the memories a careful person would keep. A kept memory
// nobody would want is a defect: precision matters more than recall.
func TestLabeledPrecisionRecall(t *testing.T) {
	files, _ := filepath.Glob(golden.Path("extract", "labeled", "*.jsonl"))
	if len(files) < 40 {
		t.Fatalf("only %d labeled excerpts; the set needs at least 40", len(files))
	}
	var extracted, correct, expected, found int
	byKind := map[string][4]int{} // extracted, correct, expected, found
	for _, f := range files {
		var want []expectation
		data, err := os.ReadFile(strings.TrimSuffix(f, ".jsonl") + ".expect.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r, _ := os.Open(f)
		tr, err := ParseClaude(r, f)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []Candidate
		for _, c := range dedupBatch(Run(Assemble(tr, "claude-code"))) {
			// A completed todo only closes an open thread; it is not a memory.
			if labeledKinds[string(c.Kind)] && c.Status != "done" {
				got = append(got, c)
			}
		}
		usedWant := make([]bool, len(want))
		for _, c := range got {
			k := byKind[string(c.Kind)]
			k[0]++
			extracted++
			ok := false
			for i, w := range want {
				if !usedWant[i] && w.matches(c) {
					usedWant[i], ok = true, true
					break
				}
			}
			if ok {
				correct++
				k[1]++
			} else {
				t.Logf("%s: unwanted %s %q", filepath.Base(f), c.Kind, c.Title)
			}
			byKind[string(c.Kind)] = k
		}
		for i, w := range want {
			k := byKind[w.Kind]
			k[2]++
			expected++
			if usedWant[i] {
				found++
				k[3]++
			} else {
				t.Logf("%s: missed %s %v", filepath.Base(f), w.Kind, w.Contains)
			}
			byKind[w.Kind] = k
		}
	}
	precision := float64(correct) / float64(max(extracted, 1))
	recall := float64(found) / float64(max(expected, 1))
	report := fmt.Sprintf("labeled set: %d excerpts, precision %.2f (%d/%d), recall %.2f (%d/%d)", len(files), precision, correct, extracted, recall, found, expected)
	for k, v := range byKind {
		report += fmt.Sprintf("\n  %-10s precision %d/%d recall %d/%d", k, v[1], v[0], v[3], v[2])
	}
	t.Log(report)
	if precision < 0.9 || recall < 0.85 {
		t.Fatalf("extraction quality below the bar (precision ≥ 0.90, recall ≥ 0.85):\n%s", report)
	}
}
