package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairnmem/cairn/internal/golden"
)

// testdata/bench/conversations.jsonl is generated from the readable
// sources in testdata/bench/conversations/*.txt: five conversations of
// turns (two friends talking over months, or a developer and an agent
// over a project) with questions whose evidence is one turn or several.
// A source file reads:
//
//	=== case id
//	--- 2023-02-04 14:10        a session and its time
//	Speaker: what was said      one turn, one memory
//	??? 2023-10-20 12:00        the questions, asked at that time
//	category | question | 1:2 3:4   evidence as session:turn
func loadConversationSource(t *testing.T, path string) Case {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c Case
	session, turn := 0, 0
	var date, asked string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "":
		case strings.HasPrefix(l, "=== "):
			c.ID = l[4:]
		case strings.HasPrefix(l, "--- "):
			session, turn, date = session+1, 0, l[4:]
		case strings.HasPrefix(l, "??? "):
			asked = l[4:]
		case asked == "":
			turn++
			c.Corpus = append(c.Corpus, Doc{ID: fmt.Sprintf("D%d:%d", session, turn), Text: l, Time: date, Session: fmt.Sprintf("session_%d", session)})
		default:
			parts := strings.Split(l, " | ")
			if len(parts) != 3 {
				t.Fatalf("%s:%d: want category | question | evidence", path, line)
			}
			q := Query{ID: fmt.Sprintf("%s-q%d", c.ID, len(c.Queries)+1), Text: parts[1], Time: asked, Category: parts[0]}
			for _, e := range strings.Fields(parts[2]) {
				q.Relevant = append(q.Relevant, "D"+e)
			}
			c.Queries = append(c.Queries, q)
		}
	}
	return c
}

func loadConversations(t *testing.T) []Case {
	t.Helper()
	f, err := os.Open(golden.Path("bench", "conversations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := LoadJSONL(f)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestConversationsMatchTheirSource(t *testing.T) {
	cases := loadConversations(t)
	srcs, _ := filepath.Glob(golden.Path("bench", "conversations", "*.txt"))
	if len(srcs) != len(cases) || len(cases) == 0 {
		t.Fatalf("%d sources for %d cases", len(srcs), len(cases))
	}
	for i, p := range srcs {
		want := loadConversationSource(t, p)
		if !reflect.DeepEqual(want, cases[i]) {
			t.Errorf("%s and conversations.jsonl case %d differ", p, i)
		}
		ids := map[string]bool{}
		for _, d := range want.Corpus {
			ids[d.ID] = true
		}
		for _, q := range want.Queries {
			for _, r := range q.Relevant {
				if !ids[r] {
					t.Errorf("%s: %q names evidence %s, which is no turn", p, q.Text, r)
				}
			}
		}
	}
}

// The conversations through the code users run: a floor under turn-level
// retrieval, below the figures the ranking reaches (recall@5 0.79,
// recall@10 0.86, MRR 0.68; before issue 15: 0.74, 0.82, 0.60).
func TestConversationsFloor(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	rep, err := Run(context.Background(), loadConversations(t), Options{Name: "conversations"})
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Overall; o.N != 168 || o.Recall5 < 0.76 || o.Recall10 < 0.83 || o.MRR < 0.65 {
		t.Fatalf("conversations: %+v", o)
	}
}
