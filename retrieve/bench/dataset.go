// Package bench measures retrieval quality on labeled data through the real
// write and read paths: each case becomes a vault of its own, its corpus is
// remembered as memories and indexed, and its queries are ranked by the
// same code as `cairn search`.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// Doc is one corpus entry, remembered as one memory. Entries of one
// conversation session share Session, in the order they were said: the
// memory records the session, as a captured memory does, and ranking may
// use its neighbours.
type Doc struct {
	ID      string `json:"id"`
	Text    string `json:"text"`
	Time    string `json:"time"`
	Session string `json:"session,omitempty"`
}

// Query is one question with the corpus ids that answer it.
type Query struct {
	ID       string   `json:"id"`
	Text     string   `json:"text"`
	Time     string   `json:"time"`
	Relevant []string `json:"relevant"`
	Category string   `json:"category"`
}

// Case is a corpus and its queries: one vault.
type Case struct {
	ID      string  `json:"id"`
	Corpus  []Doc   `json:"corpus"`
	Queries []Query `json:"queries"`
}

// LoadJSONL reads the generic format: one case per line.
func LoadJSONL(r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 512<<20)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if c.ID == "" {
			c.ID = fmt.Sprintf("case-%d", line)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// longMemEvalItem is one question of LongMemEval's own JSON.
type longMemEvalItem struct {
	QuestionID         string   `json:"question_id"`
	QuestionType       string   `json:"question_type"`
	Question           string   `json:"question"`
	QuestionDate       string   `json:"question_date"`
	AnswerSessionIDs   []string `json:"answer_session_ids"`
	HaystackDates      []string `json:"haystack_dates"`
	HaystackSessionIDs []string `json:"haystack_session_ids"`
	HaystackSessions   [][]struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		HasAnswer bool   `json:"has_answer"`
	} `json:"haystack_sessions"`
}

// LoadLongMemEval reads LongMemEval's JSON with its official retrieval
// protocol: at session level one memory per haystack session (its user
// turns joined by spaces, at the session's date), gold being the answer
// sessions that hold a user turn marked has_answer. At turn level, one
// memory per user turn, gold being the marked turns.
func LoadLongMemEval(r io.Reader, turns bool) ([]Case, error) {
	var items []longMemEvalItem
	if err := json.NewDecoder(r).Decode(&items); err != nil {
		return nil, fmt.Errorf("LongMemEval JSON: %w", err)
	}
	var out []Case
	for _, it := range items {
		if len(it.HaystackSessions) != len(it.HaystackSessionIDs) || len(it.HaystackDates) != len(it.HaystackSessionIDs) {
			return nil, fmt.Errorf("question %s: haystack lists differ in length", it.QuestionID)
		}
		c := Case{ID: it.QuestionID}
		answer := map[string]bool{}
		for _, id := range it.AnswerSessionIDs {
			answer[id] = true
		}
		var gold []string
		for i, sess := range it.HaystackSessions {
			sid := it.HaystackSessionIDs[i]
			if !turns {
				var parts []string
				marked := false
				for _, t := range sess {
					if t.Role == "user" {
						parts = append(parts, t.Content)
						marked = marked || t.HasAnswer
					}
				}
				c.Corpus = append(c.Corpus, Doc{ID: sid, Text: strings.Join(parts, " "), Time: it.HaystackDates[i], Session: sid})
				if answer[sid] && marked {
					gold = append(gold, sid)
				}
				continue
			}
			for j, t := range sess {
				if t.Role != "user" {
					continue
				}
				id := fmt.Sprintf("%s#%d", sid, j)
				c.Corpus = append(c.Corpus, Doc{ID: id, Text: t.Content, Time: it.HaystackDates[i], Session: sid})
				if answer[sid] && t.HasAnswer {
					gold = append(gold, id)
				}
			}
		}
		c.Queries = []Query{{ID: it.QuestionID, Text: it.Question, Time: it.QuestionDate, Relevant: gold, Category: it.QuestionType}}
		out = append(out, c)
	}
	return out, nil
}

// dateLayouts are the dataset date forms accepted besides RFC 3339.
var dateLayouts = []string{"2006/01/02 (Mon) 15:04", "2006/01/02 15:04", "2006/01/02", "2006-01-02 15:04:05", "2006-01-02T15:04:05",
	"2006-01-02 15:04", "2006-01-02", "3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006"}

// ParseDate reads a dataset time.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := schema.ParseTime(s); err == nil {
		return t, nil
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized date %q", s)
}
