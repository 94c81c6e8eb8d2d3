package templates

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
	"time"
)

//go:embed kinds/*.md cairn.yaml pack.md.tmpl
var files embed.FS

// MemoryData fills a kind template.
type MemoryData struct {
	Kind  string
	Title string
	Now   time.Time
}

// Memory renders the template for a kind. The result is a complete memory
// file whose guidance lives in HTML comments; Guidance returns those lines so
// a caller can strip the ones the user left untouched.
func Memory(kind string, d MemoryData) ([]byte, error) {
	src, err := files.ReadFile("kinds/" + kind + ".md")
	if err != nil {
		return nil, fmt.Errorf("no template for kind %q", kind)
	}
	t, err := template.New(kind).Funcs(template.FuncMap{"yaml": yamlString}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", kind, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("template %s: %w", kind, err)
	}
	return b.Bytes(), nil
}

// StripGuidance removes the template's comment lines that the user left as
// they were, and the blank lines they leave behind at the end.
func StripGuidance(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "<!-- cairn:") && strings.HasSuffix(t, "-->") {
			continue
		}
		out = append(out, l)
	}
	return strings.TrimRight(strings.Join(out, "\n"), "\n \t") + "\n"
}

// Config returns the cairn.yaml written by `cairn init`.
func Config() []byte {
	b, _ := files.ReadFile("cairn.yaml")
	return b
}

// yamlString quotes s as a YAML double-quoted scalar, so any title is safe
// in the template's frontmatter.
func yamlString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ", "\t", " ")
	return `"` + r.Replace(s) + `"`
}

var packTemplate = template.Must(template.New("pack").ParseFS(files, "pack.md.tmpl")).Lookup("pack.md.tmpl")

// PackData is what the context-pack template renders.
type PackData struct {
	Key      string
	Tokens   int
	Budget   int
	Sections []PackSection
}

// PackSection is one section of a pack with its item lines already
// rendered, so the budget counts exactly what is printed.
type PackSection struct {
	Title string
	Text  string
	Lines []string
	Cut   int
}

// Pack renders a context pack as markdown.
func Pack(d PackData) string {
	var b bytes.Buffer
	if err := packTemplate.Execute(&b, d); err != nil {
		// The template is embedded and tested; failing here is a bug.
		panic(fmt.Sprintf("render context pack: %v", err))
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
