package schema

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// The rules below differ by platform; they are enforced on every platform
// so a vault written on Linux checks out on macOS and Windows.

func TestURIPortability(t *testing.T) {
	long := strings.Repeat("a", 60)
	tests := []struct {
		in      string
		wantErr string // "" accepts
	}{
		{"decisions/con", "reserved"},
		{"decisions/CON", "reserved"},
		{"decisions/nul.backup", "reserved"},
		{"aux/x", "reserved"},
		{"decisions/com1", "reserved"},
		{"decisions/LPT9", "reserved"},
		{"decisions/com¹", "has '¹'"},
		{"decisions/conin$", "has '$'"},
		{"decisions/console", ""},
		{"decisions/com10", ""},
		{"decisions/nullable", ""},
		{"decisions/con-artist", ""},
		{"decisions/x.", "ends with '.'"},
		{"decisions./x", "ends with '.'"},
		{"decisions/a:b", "has ':'"},
		{"decisions/a|b", "has '|'"},
		{"decisions/a\x01b", "has '\\x01'"},
		{"decisions/" + long + "/" + long + "/" + long, "longer than"},
		{"decisions/" + long + "/" + long, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseURI(tt.in, ScopeProject)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseURI(%q): %v", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrBadURI) {
				t.Fatalf("ParseURI(%q) = %v; want an error containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func TestSlugifyAvoidsReservedNames(t *testing.T) {
	for _, title := range []string{"Con", "NUL", "aux", "Com1", "lpt3", "PRN!"} {
		s := Slugify(title)
		if _, err := ParseURI("decisions/"+s, ScopeProject); err != nil {
			t.Errorf("Slugify(%q) = %q, which is not a valid name: %v", title, s, err)
		}
	}
	if got := Slugify("Console"); got != "console" {
		t.Errorf("Slugify(Console) = %q", got)
	}
}

func TestFoldKey(t *testing.T) {
	same := [][2]string{
		{"decisions/Use-Bleve", "decisions/use-bleve"},
		{"Decisions/x", "decisions/X"},
		{"decisions/caf\u00e9", "decisions/cafe\u0301"}, // NFC and NFD, as macOS may store them
		{"decisions/ÉTÉ", "decisions/été"},
	}
	for _, p := range same {
		if FoldKey(p[0]) != FoldKey(p[1]) {
			t.Errorf("FoldKey(%q) != FoldKey(%q): they are one file on macOS and Windows", p[0], p[1])
		}
		if !SameFold(p[0], p[1]) {
			t.Errorf("SameFold(%q, %q) = false", p[0], p[1])
		}
	}
	differ := [][2]string{{"decisions/a", "decisions/b"}, {"decisions/a-1", "decisions/a_1"}, {"decisions/ab", "decisions/a"}}
	for _, p := range differ {
		if FoldKey(p[0]) == FoldKey(p[1]) || SameFold(p[0], p[1]) {
			t.Errorf("%q and %q fold together", p[0], p[1])
		}
	}
}

func TestParseArg(t *testing.T) {
	tests := []struct{ in, want, wantErr string }{
		{in: `decisions\use-bleve`, want: "mem://project/decisions/use-bleve"},
		{in: `decisions\use-bleve.md`, want: "mem://project/decisions/use-bleve"},
		{in: `decisions/sub\x`, want: "mem://project/decisions/sub/x"},
		{in: "mem://user/preferences/tabs", want: "mem://user/preferences/tabs"},
		{in: `..\..\etc\passwd`, wantErr: "escapes the vault"},
		{in: `C:\Users\me\x`, wantErr: "has ':'"},
		{in: `\\server\share\x`, wantErr: "absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseArg(tt.in, ScopeProject)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseArg(%q) = %v, %v; want error with %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got.String() != tt.want {
				t.Fatalf("ParseArg(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
			}
		})
	}
	// In files and links a backslash stays refused: it is not a separator there.
	if _, err := ParseURI(`decisions\x`, ScopeProject); err == nil {
		t.Fatal(`ParseURI accepted decisions\x`)
	}
}

func TestParsePrefixBackslash(t *testing.T) {
	scope, p, err := ParsePrefix(`decisions\sub\`)
	if err != nil || scope != "" || p != "decisions/sub/" {
		t.Fatalf(`ParsePrefix(decisions\sub\) = %q, %q, %v`, scope, p, err)
	}
}

const lfDoc = "---\nkind: decision\ntitle: Use bleve\ntags: [search]\n---\n\nWe index with bleve.\n\n## Details\n\nPure Go.\n"

func TestHandEditedEncodings(t *testing.T) {
	crlf := strings.ReplaceAll(lfDoc, "\n", "\r\n")
	tests := []struct {
		name string
		in   string
		bom  bool
		eol  string
	}{
		{"bom", "\ufeff" + lfDoc, true, "\n"},
		{"crlf", crlf, false, "\r\n"},
		{"bom+crlf", "\ufeff" + crlf, true, "\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("decisions/x.md", []byte(tt.in))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if m.Title != "Use bleve" || m.Body != "We index with bleve.\n\n## Details\n\nPure Go." || m.Overview() != "We index with bleve." {
				t.Fatalf("title %q, body %q, overview %q", m.Title, m.Body, m.Overview())
			}
			if out, _ := m.Marshal(); string(out) != tt.in {
				t.Fatalf("unchanged memory rewritten:\n%q\nwant\n%q", out, tt.in)
			}
			m.Tags = []string{"search", "index"}
			m.Updated = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			m.Body = "We index with bleve.\n\n## Details\n\nPure Go, BM25."
			out, err := m.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.HasPrefix(out, []byte("\ufeff")); got != tt.bom {
				t.Errorf("BOM kept = %v, want %v", got, tt.bom)
			}
			text := strings.TrimPrefix(string(out), "\ufeff")
			if strings.Contains(text, "\ufeff") {
				t.Errorf("a second BOM: %q", out)
			}
			lf := strings.Count(text, "\n")
			crlfs := strings.Count(text, "\r\n")
			if (tt.eol == "\r\n" && crlfs != lf) || (tt.eol == "\n" && crlfs != 0) {
				t.Errorf("mixed line endings (%d LF, %d CRLF):\n%q", lf, crlfs, out)
			}
			back, err := Parse("decisions/x.md", out)
			if err != nil || back.Body != m.Body || len(back.Tags) != 2 || !back.Updated.Equal(m.Updated) {
				t.Fatalf("rewrite does not parse back: %v %+v", err, back)
			}
		})
	}
}
