package exchange

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/adrg/frontmatter"

	"github.com/cairnmem/cairn/schema"
)

func readZip(path string) ([]candidate, []string, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, nil, err
	}
	defer zr.Close()
	var out []candidate
	var warns []string
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".md") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(io.LimitReader(rc, 4<<20))
		rc.Close()
		if err != nil {
			return nil, nil, err
		}
		m, err := schema.Parse(f.Name, data)
		if err != nil {
			warns = append(warns, err.Error())
			continue
		}
		out = append(out, candidateOf(m, f.Name))
	}
	return out, warns, nil
}

// readFolder reads a basic-memory or Obsidian folder: markdown notes with
// optional frontmatter. The kind comes from the note's type or kind field,
// its folder (decisions/ → decision), or its tags; a plain note is a
// pattern (project knowledge).
func readFolder(root string) ([]candidate, []string, error) {
	var out []candidate
	var warns []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // .obsidian, .git, .trash
			}
			return nil
		}
		if !strings.HasSuffix(strings.ToLower(d.Name()), ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		c, err := noteCandidate(rel, data)
		if err != nil {
			warns = append(warns, rel+": "+err.Error())
			return nil
		}
		if strings.TrimSpace(c.Body) == "" && c.Title == "" {
			return nil
		}
		out = append(out, c)
		return nil
	})
	return out, warns, err
}

var h1 = regexp.MustCompile(`(?m)^#\s+(.+?)\s*$`)

func noteCandidate(rel string, data []byte) (candidate, error) {
	var fm map[string]any
	body, err := frontmatter.Parse(bytes.NewReader(data), &fm)
	if err != nil {
		body, fm = data, nil // a broken header: take the note as text
	}
	text := strings.TrimSpace(string(body))
	c := candidate{Ref: rel}
	c.Title = str(fm["title"])
	if c.Title == "" {
		if m := h1.FindStringSubmatchIndex(text); m != nil && m[0] == 0 {
			c.Title = text[m[2]:m[3]]
			text = strings.TrimSpace(text[m[1]:])
		}
	}
	if c.Title == "" {
		c.Title = strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
	}
	c.Body = text
	c.Summary = str(fm["summary"])
	c.Tags = strs(fm["tags"])
	c.Kind = kindFor(str(fm["kind"]), str(fm["type"]), filepath.Dir(rel), c.Tags)
	return c, nil
}

// kindFor picks the first hint that names a cairn kind.
func kindFor(kind, typ, dir string, tags []string) schema.Kind {
	hints := []string{kind, typ}
	for _, part := range strings.Split(filepath.ToSlash(dir), "/") {
		hints = append(hints, part, strings.TrimSuffix(part, "s"))
	}
	hints = append(hints, tags...)
	for _, h := range hints {
		if k, err := schema.ParseKind(strings.ToLower(strings.TrimSpace(h))); err == nil && h != "" {
			return k
		}
	}
	return schema.KindPattern
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func strs(v any) []string {
	switch t := v.(type) {
	case string:
		var out []string
		for _, s := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' }) {
			out = append(out, strings.TrimPrefix(s, "#"))
		}
		return out
	case []any:
		var out []string
		for _, x := range t {
			if s := str(x); s != "" {
				out = append(out, strings.TrimPrefix(s, "#"))
			}
		}
		return out
	}
	return nil
}

// readCline reads a Cline memory bank: the brief and product context
// become project knowledge, system patterns one pattern per section,
// technical constraints constraints, next steps and what is left open
// threads, the active context and progress an event each.
func readCline(dir string) ([]candidate, []string, error) {
	var out []candidate
	read := func(name string) (string, bool) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		return strings.TrimSpace(string(data)), err == nil
	}
	whole := map[string]string{"projectbrief.md": "Project brief", "productContext.md": "Product context"}
	for _, name := range []string{"projectbrief.md", "productContext.md"} {
		if text, ok := read(name); ok && text != "" {
			out = append(out, candidate{Kind: schema.KindPattern, Title: whole[name], Body: stripH1(text), Tags: []string{"cline"}, Ref: name})
		}
	}
	for _, name := range []string{"systemPatterns.md", "techContext.md"} {
		text, ok := read(name)
		if !ok {
			continue
		}
		for _, s := range sections(text) {
			k := schema.KindPattern
			if strings.Contains(strings.ToLower(s.title), "constraint") {
				k = schema.KindConstraint
			}
			out = append(out, candidate{Kind: k, Title: s.title, Body: s.body, Tags: []string{"cline"}, Ref: name + "#" + s.title})
		}
	}
	for _, name := range []string{"activeContext.md", "progress.md"} {
		text, ok := read(name)
		if !ok || text == "" {
			continue
		}
		title := map[string]string{"activeContext.md": "Active context (from Cline)", "progress.md": "Progress (from Cline)"}[name]
		out = append(out, candidate{Kind: schema.KindEvent, Title: title, Body: stripH1(text), Tags: []string{"cline"}, Ref: name})
		for _, s := range sections(text) {
			l := strings.ToLower(s.title)
			if !strings.Contains(l, "next") && !strings.Contains(l, "left") && !strings.Contains(l, "todo") && !strings.Contains(l, "known issue") {
				continue
			}
			for _, item := range bullets(s.body) {
				out = append(out, candidate{Kind: schema.KindThread, Title: item, Body: item, Status: schema.StatusOpen, Tags: []string{"cline"}, Ref: name + "#" + s.title})
			}
		}
	}
	return out, nil, nil
}

type section struct{ title, body string }

func sections(text string) []section {
	var out []section
	var cur *section
	for _, l := range strings.Split(text, "\n") {
		if t, ok := strings.CutPrefix(l, "## "); ok {
			out = append(out, section{title: strings.TrimSpace(t)})
			cur = &out[len(out)-1]
			continue
		}
		if cur != nil {
			cur.body += l + "\n"
		}
	}
	for i := range out {
		out[i].body = strings.TrimSpace(out[i].body)
	}
	return out
}

var bulletRe = regexp.MustCompile(`(?m)^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?(.+?)\s*$`)

func bullets(s string) []string {
	var out []string
	for _, m := range bulletRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func stripH1(text string) string {
	if m := h1.FindStringIndex(text); m != nil && m[0] == 0 {
		return strings.TrimSpace(text[m[1]:])
	}
	return text
}
