package schema

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// Tier selects how much of a memory to show.
type Tier int

// The three tiers: L0 is the one-line summary, L1 the overview (the body
// before "## Details"), L2 everything.
const (
	TierSummary  Tier = 0
	TierOverview Tier = 1
	TierFull     Tier = 2
)

// detailsHeading splits the overview from the details.
const detailsHeading = "details"

// maxDerivedSummary bounds a summary derived from the body.
const maxDerivedSummary = 200

var md = goldmark.New()

// Body is a parsed markdown body.
type Body struct {
	src  []byte
	root ast.Node
}

// ParseBody parses markdown with goldmark.
func ParseBody(body string) *Body {
	src := []byte(body)
	return &Body{src: src, root: md.Parser().Parse(text.NewReader(src))}
}

// Overview is the L1 tier: the body up to the first level-2 "Details"
// heading, or the whole body when there is none.
func (b *Body) Overview() string {
	for n := b.root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 || !strings.EqualFold(strings.TrimSpace(b.plain(h)), detailsHeading) {
			continue
		}
		if h.Lines().Len() == 0 {
			continue
		}
		start := h.Lines().At(0).Start
		for start > 0 && b.src[start-1] != '\n' {
			start--
		}
		return strings.TrimSpace(string(b.src[:start]))
	}
	return strings.TrimSpace(string(b.src))
}

// FirstSentence is the plain text of the first paragraph up to its first
// sentence end, for memories without a summary.
func (b *Body) FirstSentence() string {
	var para string
	_ = ast.Walk(b.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || para != "" {
			return ast.WalkSkipChildren, nil
		}
		if p, ok := n.(*ast.Paragraph); ok {
			para = strings.Join(strings.Fields(b.plain(p)), " ")
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return firstSentence(para)
}

func firstSentence(s string) string {
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			s = s[:i+1]
			break
		}
	}
	return truncate(s, maxDerivedSummary)
}

// truncate cuts s to at most n bytes at a word boundary, adding an ellipsis.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// plain concatenates the text under n, code spans included, so that links
// and emphasis read as their words.
func (b *Body) plain(n ast.Node) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			sb.Write(t.Segment.Value(b.src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.Write(t.Value)
		case *ast.AutoLink:
			sb.Write(t.URL(b.src))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

var wikiLink = lazyre.New(`\[\[([^\[\]|#]+)(?:[|#][^\[\]]*)?\]\]`)

// Links returns the mem:// destinations of markdown links and autolinks in
// the body, and the targets of [[wiki]] links, which the caller resolves
// against the vault. Links inside code are not links.
func (b *Body) Links() (uris []string, wiki []string) {
	var textRun strings.Builder
	flush := func() {
		for _, m := range wikiLink.FindAllStringSubmatch(textRun.String(), -1) {
			wiki = append(wiki, strings.TrimSpace(m[1]))
		}
		textRun.Reset()
	}
	_ = ast.Walk(b.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch t := n.(type) {
		case *ast.Link:
			if entering && strings.HasPrefix(string(t.Destination), Scheme) {
				uris = append(uris, string(t.Destination))
			}
		case *ast.AutoLink:
			if entering && strings.HasPrefix(string(t.URL(b.src)), Scheme) {
				uris = append(uris, string(t.URL(b.src)))
			}
		case *ast.Text:
			if entering {
				textRun.Write(t.Segment.Value(b.src))
			}
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			if entering {
				flush()
			}
			return ast.WalkSkipChildren, nil
		default:
			if n.Type() == ast.TypeBlock && entering {
				flush()
			}
		}
		return ast.WalkContinue, nil
	})
	flush()
	return uris, wiki
}

// L0 is the one-line summary: the summary field, else the body's first
// sentence, else the title.
func (m *Memory) L0() string {
	if s := strings.TrimSpace(m.Summary); s != "" {
		return s
	}
	if s := ParseBody(m.Body).FirstSentence(); s != "" {
		return s
	}
	return m.Title
}

// Overview is the L1 tier of the body.
func (m *Memory) Overview() string { return ParseBody(m.Body).Overview() }

// TierText renders the memory at a tier as markdown for a reader.
func (m *Memory) TierText(t Tier) string {
	switch t {
	case TierSummary:
		return m.L0()
	case TierOverview:
		ov := m.Overview()
		if ov == "" {
			return m.L0()
		}
		return ov
	default:
		return m.Body
	}
}

// AllLinks returns the frontmatter links and the body's mem:// links,
// deduplicated in order of appearance. Wiki links are returned apart.
func (m *Memory) AllLinks() (uris []string, wiki []string) {
	seen := map[string]bool{}
	add := func(u string) {
		if !seen[u] {
			seen[u] = true
			uris = append(uris, u)
		}
	}
	for _, l := range m.Links {
		add(l)
	}
	bodyURIs, wiki := ParseBody(m.Body).Links()
	for _, l := range bodyURIs {
		add(l)
	}
	return uris, wiki
}
