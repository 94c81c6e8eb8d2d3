package bench

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
)

// The runner goes through vault, index and retrieve for real on a tiny
// hand-made dataset whose answers are unambiguous.
func TestRunTinyDataset(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	f, err := os.Open(golden.Path("bench", "tiny.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := LoadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cases, Options{Name: "tiny", Details: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 2 || rep.Queries != 3 || rep.Skipped != 1 || rep.Memories != 6 {
		t.Fatalf("counts: %+v", rep)
	}
	if rep.Overall.RecallAll5 != 1 || rep.Overall.MRR != 1 {
		t.Fatalf("an unambiguous dataset scored %+v; per query %+v", rep.Overall, rep.PerQuery)
	}
	if rep.ByCategory["procedure"].N != 1 || rep.ByCategory["fact"].N != 2 {
		t.Fatalf("categories: %+v", rep.ByCategory)
	}
	if rep.IngestPerSec <= 0 || rep.QueryP50Ms <= 0 {
		t.Fatalf("rates not measured: %+v", rep)
	}
}

func TestLoadLongMemEvalProtocol(t *testing.T) {
	const data = `[{"question_id":"q","question_type":"t","question":"what?","question_date":"2023/05/30 (Tue) 16:40",
	  "answer_session_ids":["s1","s2"],"haystack_dates":["2023/05/01 (Mon) 10:00","2023/05/02 (Tue) 10:00","2023/05/03 (Wed) 10:00"],
	  "haystack_session_ids":["s1","s2","s3"],
	  "haystack_sessions":[[{"role":"user","content":"a","has_answer":true},{"role":"assistant","content":"x"}],
	                       [{"role":"user","content":"b"}],
	                       [{"role":"user","content":"c"},{"role":"user","content":"d","has_answer":true}]]}]`
	cases, err := LoadLongMemEval(strings.NewReader(data), false)
	if err != nil {
		t.Fatal(err)
	}
	c := cases[0]
	// s2 is an answer session without a marked turn, s3 a marked turn
	// outside the answer sessions: neither is gold.
	if len(c.Corpus) != 3 || c.Corpus[2].Text != "c d" || len(c.Queries[0].Relevant) != 1 || c.Queries[0].Relevant[0] != "s1" {
		t.Fatalf("session level: %+v", c)
	}
	turns, _ := LoadLongMemEval(strings.NewReader(data), true)
	if len(turns[0].Corpus) != 4 || len(turns[0].Queries[0].Relevant) != 1 || turns[0].Queries[0].Relevant[0] != "s1#0" {
		t.Fatalf("turn level: %+v", turns[0])
	}
}
