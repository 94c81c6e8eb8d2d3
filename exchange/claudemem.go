package exchange

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "modernc.org/sqlite" // pure Go SQLite: no cgo, no system library

	"github.com/cairnmem/cairn/schema"
)

// claudeMemKinds maps claude-mem observation types to kinds.
var claudeMemKinds = map[string]schema.Kind{
	"decision": schema.KindDecision, "bugfix": schema.KindCase, "discovery": schema.KindPattern,
	"feature": schema.KindEvent, "refactor": schema.KindEvent, "change": schema.KindEvent,
}

// readClaudeMem reads claude-mem's database (~/.claude-mem/claude-mem.db):
// observations and session summaries. Columns are looked up by name, so
// older and newer schemas both work; the database is opened read-only.
func readClaudeMem(path string) ([]candidate, []string, error) {
	db, err := sql.Open("sqlite", "file:"+url.PathEscape(path)+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	var out []candidate
	var warns []string
	obs, err := rows(db, "observations")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w (is this a claude-mem database?)", path, err)
	}
	for _, r := range obs {
		typ := strings.ToLower(r["type"])
		kind, ok := claudeMemKinds[typ]
		if !ok {
			kind = schema.KindEvent
		}
		var body []string
		for _, k := range []string{"subtitle", "narrative", "text"} {
			if r[k] != "" {
				body = append(body, r[k])
			}
		}
		if facts := jsonList(r["facts"]); len(facts) > 0 {
			body = append(body, "Facts:\n- "+strings.Join(facts, "\n- "))
		}
		if files := jsonList(r["files_modified"]); len(files) > 0 {
			body = append(body, "Files: "+strings.Join(files, ", "))
		}
		title := r["title"]
		if title == "" {
			warns = append(warns, "observation "+r["id"]+": no title, skipped")
			continue
		}
		tags := append([]string{"claude-mem"}, jsonList(r["concepts"])...)
		out = append(out, candidate{Kind: kind, Title: title, Summary: r["subtitle"], Body: strings.Join(body, "\n\n"), Tags: tags,
			When: parseTime(r["created_at"]), Ref: "observations/" + r["id"]})
	}
	sums, err := rows(db, "session_summaries")
	if err != nil {
		warns = append(warns, "no session_summaries table: "+err.Error())
	}
	for _, r := range sums {
		var b strings.Builder
		for _, f := range []struct{ col, label string }{{"request", "Asked"}, {"investigated", "Investigated"}, {"learned", "Learned"},
			{"completed", "Done"}, {"next_steps", "Left"}, {"notes", "Notes"}} {
			if v := strings.TrimSpace(r[f.col]); v != "" {
				fmt.Fprintf(&b, "%s: %s\n\n", f.label, v)
			}
		}
		if b.Len() == 0 {
			continue
		}
		req := r["request"]
		if req == "" {
			req = "session " + r["id"]
		}
		out = append(out, candidate{Kind: schema.KindSession, Title: "Session: " + oneLine(req, 90), Summary: oneLine(r["completed"], 300),
			Body: strings.TrimSpace(b.String()), Tags: []string{"claude-mem", "session"}, When: parseTime(r["created_at"]), Ref: "session_summaries/" + r["id"]})
	}
	return out, warns, nil
}

// rows reads a whole table as maps of column name to text.
func rows(db *sql.DB, table string) ([]map[string]string, error) {
	rs, err := db.Query("SELECT * FROM " + table) // table names are constants above
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		m := map[string]string{}
		for i, c := range cols {
			switch v := vals[i].(type) {
			case nil:
			case []byte:
				m[c] = string(v)
			case time.Time:
				m[c] = v.UTC().Format(time.RFC3339)
			default:
				m[c] = fmt.Sprint(v)
			}
		}
		out = append(out, m)
	}
	return out, rs.Err()
}

func jsonList(s string) []string {
	var xs []string
	if json.Unmarshal([]byte(s), &xs) == nil {
		return xs
	}
	if s = strings.TrimSpace(s); s != "" && !strings.HasPrefix(s, "[") {
		return []string{s}
	}
	return nil
}

func parseTime(s string) time.Time {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05.000Z"} {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
