package schema

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/internal/golden"
)

func TestParseURI(t *testing.T) {
	tests := []struct {
		in      string
		def     Scope
		want    string
		wantErr string
	}{
		{in: "mem://project/decisions/use-bleve", want: "mem://project/decisions/use-bleve"},
		{in: "mem://user/preferences/tabs", want: "mem://user/preferences/tabs"},
		{in: "decisions/use-bleve", def: ScopeProject, want: "mem://project/decisions/use-bleve"},
		{in: "decisions/use-bleve.md", def: ScopeUser, want: "mem://user/decisions/use-bleve"},
		{in: "mem://project/a/b/c", want: "mem://project/a/b/c"},
		{in: "mem://project/décisions/été", want: "mem://project/décisions/été"},
		{in: "mem://project/../etc/passwd", wantErr: "escapes the vault"},
		{in: "decisions/../../x", def: ScopeProject, wantErr: "escapes the vault"},
		{in: "/etc/passwd", def: ScopeProject, wantErr: "absolute"},
		{in: "mem://project/.git/config", wantErr: "starts with a dot"},
		{in: "mem://project/decisions", wantErr: "lives in a directory"},
		{in: "mem://team/decisions/x", wantErr: "scope must be project or user"},
		{in: "https://example.com/a/b", wantErr: "only mem://"},
		{in: "mem://project/decisions/has space", wantErr: "has ' '"},
		{in: "mem://project/decisions//x", wantErr: "empty path segment"},
		{in: `decisions\x`, def: ScopeProject, wantErr: "backslashed"},
		{in: "decisions/x", wantErr: "no scope"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseURI(tt.in, tt.def)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrBadURI) {
					t.Fatalf("ParseURI(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got.String() != tt.want {
				t.Fatalf("ParseURI(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
			}
			if back, err := URIFromRelPath(got.RelPath(), got.Scope); err != nil || back != got {
				t.Fatalf("round trip through RelPath %q: %v, %v", got.RelPath(), back, err)
			}
		})
	}
}

func TestSlugify(t *testing.T) {
	tests := map[string]string{
		"Use bleve for search":           "use-bleve-for-search",
		"  Don't   commit .env files!  ": "don-t-commit-env-files",
		"Überprüfung der API":            "überprüfung-der-api",
		"???":                            "memory",
		"A very long title that keeps going and going well past any sensible file name length limit": "a-very-long-title-that-keeps-going-and-going-well-past-any",
	}
	for in, want := range tests {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
		if _, err := ParseURI("decisions/"+Slugify(in), ScopeProject); err != nil {
			t.Errorf("slug of %q is not a valid URI segment: %v", in, err)
		}
	}
}

func TestParseErrorsNameFileLineField(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"missing frontmatter", "just text\n", "m.md:1: frontmatter: missing"},
		{"unclosed", "---\nkind: decision\ntitle: x\n", "m.md:1: frontmatter: not closed"},
		{"yaml syntax", "---\nkind: decision\ntitle: a: b\n---\n", "m.md:3: frontmatter: YAML syntax: mapping values are not allowed"},
		{"unknown kind", "---\nkind: decisoin\ntitle: x\n---\n", "m.md:2: kind: unknown kind \"decisoin\""},
		{"missing title", "---\nkind: decision\n---\nbody\n", "m.md:1: title: required"},
		{"importance range", "---\nkind: event\ntitle: x\nimportance: 1.5\n---\n", "m.md:4: importance: must be between 0 and 1"},
		{"importance type", "---\nkind: event\ntitle: x\nimportance: high\n---\n", "m.md:4: importance: want a number"},
		{"bad status", "---\nkind: event\ntitle: x\nstatus: gone\n---\n", "m.md:4: status: unknown status"},
		{"bad link", "---\nkind: event\ntitle: x\nlinks:\n  - https://x.y/z\n---\n", "m.md:4: links: \"https://x.y/z\" is not a mem:// URI"},
		{"link escaping", "---\nkind: event\ntitle: x\nlinks: [\"mem://project/../x\"]\n---\n", "m.md:4: links:"},
		{"bad date", "---\nkind: event\ntitle: x\ncreated: yesterday\n---\n", "m.md:4: created: want a date"},
		{"duplicate", "---\nkind: event\ntitle: x\ntitle: y\n---\n", "m.md:4: title: duplicate field (first set on line 3)"},
		{"leading blank lines shift lines", "\n\n---\nkind: event\ntitle: x\npinned: maybe\n---\n", "m.md:6: pinned: want true or false"},
		{"list item mapping", "---\nkind: event\ntitle: x\ntags:\n  - a\n  - {b: c}\n---\n", "m.md:5: tags: line 6: list items must be single values"},
		{"bad gate", "---\nkind: reminder\ntitle: x\ngate: someday\n---\n", "m.md:4: gate: want always, session-start or a due date"},
		{"not a mapping", "---\n- a\n- b\n---\n", "m.md:2: frontmatter: want key: value fields, found a list"},
		{"NUL in frontmatter", "---\nkind: event\ntags: [a]\ntitle: bad\x00 title\n---\nbody\n", "m.md:4: frontmatter: YAML syntax: control character U+0000"},
		{"ESC after blank lines", "\n---\nkind: event\ntitle: \x1b[31mred\n---\n", "m.md:4: frontmatter: YAML syntax: control character U+001B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.md", []byte(tt.src))
			if err == nil {
				err = m.Validate("m.md")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want error containing %q", err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
		})
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(golden.Path("memories", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRoundTripIsByteIdentical(t *testing.T) {
	data := readFixture(t, "handwritten.md")
	m, err := Parse("handwritten.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate("handwritten.md"); err != nil {
		t.Fatal(err)
	}
	out, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(data) {
		t.Fatalf("unchanged memory rewrote bytes:\n%s", out)
	}
}

func TestRewriteIsMinimal(t *testing.T) {
	data := readFixture(t, "handwritten.md")
	m, err := Parse("handwritten.md", data)
	if err != nil {
		t.Fatal(err)
	}
	m.Status = StatusSuperseded
	m.SupersededBy = "mem://project/decisions/use-tantivy"
	m.Tags = append(m.Tags, "superseded")
	m.Updated = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	m.Summary = "Bleve was our full-text engine until we moved on."
	out, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "schema/handwritten-superseded.md", out)

	again, err := Parse("out.md", out)
	if err != nil {
		t.Fatalf("rewrite does not parse: %v", err)
	}
	if again.Status != StatusSuperseded || again.SupersededBy != m.SupersededBy || len(again.Tags) != 3 || again.Summary != m.Summary {
		t.Fatalf("rewrite lost values: %+v", again)
	}
	if !strings.Contains(string(out), "owner: alice            # unknown field: cairn must keep it") {
		t.Fatal("unknown field or its comment was not preserved")
	}
	// Removing a field removes exactly its lines.
	again.Summary = ""
	again.SupersededBy = ""
	out2, _ := again.Marshal()
	if strings.Contains(string(out2), "summary:") || strings.Contains(string(out2), "superseded_by") {
		t.Fatalf("removed fields still present:\n%s", out2)
	}
}

func TestRewriteBody(t *testing.T) {
	m, err := Parse("x.md", readFixture(t, "handwritten.md"))
	if err != nil {
		t.Fatal(err)
	}
	m.Body = "A new overview.\n\n## Details\n\nMore."
	out, _ := m.Marshal()
	golden.Assert(t, "schema/handwritten-newbody.md", out)
}

func TestNewMemoryRender(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	m := New(KindDecision, "Use bleve for search", now)
	imp := 0.8
	m.Importance = &imp
	m.Tags = []string{"search", "index"}
	m.Links = []string{"mem://project/decisions/vectors"}
	m.Supersedes = []string{"mem://project/decisions/use-sqlite"}
	m.Source = &Source{Agent: "cli", Session: "s-1"}
	m.Body = "We chose bleve.\n\n## Details\n\nPure Go."
	if err := m.Validate(""); err != nil {
		t.Fatal(err)
	}
	out, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "schema/new-decision.md", out)
	back, err := Parse("new.md", out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Title != m.Title || *back.Importance != 0.8 || back.Source.Session != "s-1" || !back.Created.Equal(now) ||
		len(back.Supersedes) != 1 || back.Body != strings.TrimSpace(m.Body) {
		t.Fatalf("round trip lost data: %+v", back)
	}
}

func TestTiersAndLinks(t *testing.T) {
	m, err := Parse("x.md", readFixture(t, "handwritten.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.L0(); got != "We index memories with bleve because it is pure Go." {
		t.Errorf("L0 = %q", got)
	}
	if got := m.Overview(); got != "We index memories with bleve because it is pure Go." {
		t.Errorf("L1 = %q", got)
	}
	if full := m.TierText(TierFull); !strings.Contains(full, "SQLite FTS5") {
		t.Errorf("L2 lacks details: %q", full)
	}
	uris, wiki := m.AllLinks()
	if len(uris) != 1 || uris[0] != "mem://project/decisions/vectors" {
		t.Errorf("uris = %v", uris)
	}
	if len(wiki) != 1 || wiki[0] != "use-vek" {
		t.Errorf("wiki = %v", wiki)
	}
	m.Summary = "Given summary."
	if m.L0() != "Given summary." {
		t.Errorf("summary field should win")
	}
}

func TestGate(t *testing.T) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		gate         string
		sessionStart bool
		open         bool
	}{
		{"always", false, true},
		{"session-start", true, true},
		{"session-start", false, false},
		{"2026-11-21", false, true},
		{"2026-11-23", true, false},
	}
	for _, tt := range tests {
		g, err := ParseGate(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Open(now, tt.sessionStart); got != tt.open {
			t.Errorf("gate %q at session start %v: open = %v", tt.gate, tt.sessionStart, got)
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, in := range []string{"decision", "Decision", "decisions"} {
		if k, err := ParseKind(in); err != nil || k != KindDecision {
			t.Errorf("ParseKind(%q) = %v, %v", in, k, err)
		}
	}
	if _, err := ParseKind("nope"); err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown kind accepted: %v", err)
	}
	for _, info := range Kinds() {
		if info.DecayExempt != (info.HalfLife == 0) {
			t.Errorf("%s: exempt kinds and only they have no half-life", info.Kind)
		}
	}
}

func TestYAMLParserErrorLine(t *testing.T) {
	_, err := Parse("m.md", []byte("---\nkind: decision\ntitle: [unclosed\n---\n"))
	if err == nil || !strings.Contains(err.Error(), "m.md:3: frontmatter: YAML syntax: did not find expected") {
		t.Fatalf("got %v, want the error on line 3, where the flow list opens", err)
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\twith tab\nand lines\r\n": "plain text\twith tab\nand lines\r\n",
		"nul\x00 esc\x1b[31m del\x7f":         "nul esc[31m del",
		"c1 \u009b csi, é kept":               "c1  csi, é kept",
		"bad \xff utf8":                       "bad \uFFFD utf8",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
	if l, r := FindControl("ok\nstill ok\nhere \x07"); l != 3 || r != 7 {
		t.Errorf("FindControl = %d %U", l, r)
	}
}
