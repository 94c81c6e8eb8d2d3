package schema

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// document is the text a Memory was parsed from, kept so that a rewrite
// touches only the lines of changed fields.
type document struct {
	raw        string
	head       string // a byte order mark, leading blank lines and the opening "---" line
	eol        string // the file's line ending, "\n" or "\r\n", kept on rewrites
	fm         string // frontmatter text between the delimiters
	close      string // the closing "---" line
	body       string // everything after the closing line, verbatim
	lineOffset int    // file line of the frontmatter's first line, minus one
	keys       []keyPos
	orig       *Memory // field values as parsed, to detect changes
}

// keyPos is where one top-level key sits in the frontmatter text: lines
// [start, end) of fm, 0-based, with trailing blank and comment lines left
// out so they stay with the next key.
type keyPos struct {
	key        string
	start, end int
	flow       bool // the value was written as a flow list
}

var yamlLine = lazyre.New(`line (\d+)`)

// utf8BOM opens files some Windows editors write; it is kept on rewrites.
const utf8BOM = "\ufeff"

// Parse reads a memory file. file names it in errors; it may be empty.
// Unknown fields are kept and written back untouched. A UTF-8 byte order
// mark and CRLF line endings, as Windows editors write them, are accepted
// and kept; the body is given with "\n" line endings.
func Parse(file string, data []byte) (*Memory, error) {
	verr := &ValidationError{}
	d, fmText := splitDocument(file, data, verr)
	if d == nil {
		return nil, verr
	}
	m := &Memory{doc: d}
	var root yaml.Node
	if err := yaml.Unmarshal(fmText, &root); err != nil {
		yamlSyntax(verr, file, d, fmText, err)
		return nil, verr
	}
	mapping := &yaml.Node{Kind: yaml.MappingNode}
	if len(root.Content) > 0 {
		mapping = root.Content[0]
	}
	if mapping.Kind != yaml.MappingNode {
		verr.add(file, d.lineOffset+mapping.Line, "frontmatter", "want key: value fields, found a %s", nodeKind(mapping))
		return nil, verr
	}
	decodeFields(verr, file, m, mapping)
	m.Body = trimBody(strings.ReplaceAll(d.body, "\r\n", "\n"))
	if err := verr.orNil(); err != nil {
		return nil, err
	}
	orig := m.Clone()
	orig.doc = nil
	d.orig = orig
	return m, nil
}

// splitDocument cuts a file into its parts around the frontmatter's ---
// lines, keeping each byte for a faithful rewrite; it returns the
// frontmatter's text too. A file whose frontmatter cannot be found is
// nil, with the reason in verr.
func splitDocument(file string, data []byte, verr *ValidationError) (*document, []byte) {
	raw := data
	bom := bytes.HasPrefix(data, []byte(utf8BOM))
	if bom {
		data = data[len(utf8BOM):]
	}
	var fmText []byte
	format := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
		fmText = append([]byte{}, b...)
		return nil
	})
	body, err := frontmatter.MustParse(bytes.NewReader(data), nil, format)
	if err != nil {
		if errors.Is(err, frontmatter.ErrNotFound) {
			if opensFrontmatter(data) {
				verr.add(file, 1, "frontmatter", "not closed: add a line with --- after the fields")
			} else {
				verr.add(file, 1, "frontmatter", "missing: a memory starts with a --- line, its fields, and another --- line")
			}
			return nil, nil
		}
		verr.add(file, 0, "frontmatter", "%v", err)
		return nil, nil
	}
	headLen := len(data) - len(body)
	open := openingLen(data)
	if open+len(fmText) > headLen {
		verr.add(file, 1, "frontmatter", "cannot locate the fields between the --- lines")
		return nil, nil
	}
	d := &document{
		raw:   string(raw),
		head:  string(data[:open]),
		eol:   "\n",
		fm:    string(data[open : open+len(fmText)]),
		close: string(data[open+len(fmText) : headLen]),
		body:  string(body),
	}
	d.lineOffset = strings.Count(d.head, "\n")
	if strings.HasSuffix(d.head, "\r\n") {
		d.eol = "\r\n"
	}
	if bom {
		d.head = utf8BOM + d.head
	}
	return d, fmText
}

// yamlSyntax reports a YAML syntax error at its line of the file, which
// yaml.v3 does not always know.
func yamlSyntax(verr *ValidationError, file string, d *document, fmText []byte, err error) {
	line := 0
	msg := cleanYAMLError(err).Error()
	if sm := yamlLine.FindStringSubmatch(msg); sm != nil {
		n, _ := strconv.Atoi(sm[1])
		msg = strings.TrimSpace(yamlLine.ReplaceAllString(msg, ""))
		msg = strings.TrimPrefix(msg, ": ")
		// yaml.v3 reports parser errors ("did not find expected ...") at
		// the 0-based line of their context, one short of the real line.
		if strings.HasPrefix(msg, "did not find expected") {
			n++
		}
		line = d.lineOffset + n
	} else if l, r := FindControl(string(fmText)); l > 0 {
		// yaml.v3 names no line for control characters.
		line = d.lineOffset + l
		msg = DescribeControl(r) + " is not allowed (remove it)"
	}
	verr.add(file, line, "frontmatter", "YAML syntax: %s", msg)
}

// decodeFields sets m's fields from the frontmatter's mapping, records
// where each key's lines are for rewrites, and reports duplicate and bad
// fields by line.
func decodeFields(verr *ValidationError, file string, m *Memory, mapping *yaml.Node) {
	d := m.doc
	lines := splitLines(d.fm)
	seen := map[string]int{}
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		k, v := mapping.Content[i], mapping.Content[i+1]
		line := d.lineOffset + k.Line
		if prev, dup := seen[k.Value]; dup {
			verr.add(file, line, k.Value, "duplicate field (first set on line %d)", prev)
			continue
		}
		seen[k.Value] = line
		pos := keyPos{key: k.Value, start: k.Line - 1, flow: v.Style&yaml.FlowStyle != 0}
		next := len(lines)
		if i+2 < len(mapping.Content) {
			next = mapping.Content[i+2].Line - 1
		}
		pos.end = trimTrailing(lines, pos.start+1, next)
		d.keys = append(d.keys, pos)
		if idx, ok := fieldIndex[k.Value]; ok {
			if err := fields[idx].decode(m, v); err != nil {
				verr.add(file, d.lineOffset+v.Line, k.Value, "%s", relLine(err.Error(), d.lineOffset))
			}
		}
	}
}

// relLine rewrites "line N" inside a nested error to a file line.
func relLine(msg string, offset int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(yamlLine.FindStringSubmatch(s)[1])
		return fmt.Sprintf("line %d", n+offset)
	})
}

func opensFrontmatter(data []byte) bool {
	for _, l := range splitLines(string(data)) {
		if t := strings.TrimSpace(l); t != "" {
			return t == "---"
		}
	}
	return false
}

// openingLen is the length of the leading blank lines plus the "---" line,
// mirroring how the frontmatter parser finds the start.
func openingLen(data []byte) int {
	n := 0
	for _, l := range splitLines(string(data)) {
		n += len(l)
		if strings.TrimSpace(l) != "" {
			return n
		}
	}
	return n
}

// splitLines splits s after each newline; every line keeps its "\n"
// except a last line that had none.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimTrailing moves end back over blank lines and column-0 comments, which
// belong with the key that follows them.
func trimTrailing(lines []string, min, end int) int {
	for end > min {
		l := lines[end-1]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			end--
			continue
		}
		break
	}
	return end
}

func trimBody(b string) string {
	return strings.TrimRight(strings.TrimLeft(b, "\r\n"), " \t\r\n")
}

// Marshal renders the memory as file bytes. A memory parsed from a file is
// rewritten line by line: unchanged fields, unknown fields, comments and the
// body keep their exact bytes.
func (m *Memory) Marshal() ([]byte, error) {
	if m.doc == nil {
		return m.render()
	}
	d := m.doc
	fm, err := d.patch(m)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(d.head)
	b.WriteString(fm)
	b.WriteString(d.close)
	if m.Body == d.orig.Body {
		b.WriteString(d.body)
	} else {
		if !strings.HasSuffix(d.close, "\n") {
			b.WriteString(d.eol)
		}
		var body strings.Builder
		writeBody(&body, m.Body)
		b.WriteString(d.withEOL(body.String()))
	}
	return []byte(b.String()), nil
}

func (m *Memory) render() ([]byte, error) {
	var b strings.Builder
	b.WriteString("---\n")
	for _, f := range fields {
		v := f.get(m)
		if v == nil {
			continue
		}
		s, err := renderField(f.key, v, f.flow)
		if err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	b.WriteString("---\n")
	writeBody(&b, m.Body)
	return []byte(b.String()), nil
}

func writeBody(b *strings.Builder, body string) {
	if body = trimBody(body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
		b.WriteString("\n")
	}
}

// renderField encodes "key: value" as YAML lines ending in a newline.
func renderField(key string, v any, flow bool) (string, error) {
	var val yaml.Node
	if err := val.Encode(v); err != nil {
		return "", fmt.Errorf("encode %s: %w", key, err)
	}
	if flow && val.Kind == yaml.SequenceNode {
		val.Style = yaml.FlowStyle
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &val}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("encode %s: %w", key, err)
	}
	return buf.String(), enc.Close()
}

// replaceFirst orders a replacement before inserts at the same line, so an
// insert is never swallowed by the range of the key it precedes.
const replaceFirst = 1 << 30

type edit struct {
	at, end int // replace lines [at, end); at == end inserts
	order   int // canonical order among inserts at the same line
	text    string
}

// patch returns the frontmatter text with changed fields rewritten.
func (d *document) patch(m *Memory) (string, error) {
	lines := splitLines(d.fm)
	pos := map[string]keyPos{}
	for _, k := range d.keys {
		pos[k.key] = k
	}
	var edits []edit
	for i, f := range fields {
		newV, oldV := f.get(m), f.get(d.orig)
		if reflect.DeepEqual(newV, oldV) {
			continue
		}
		kp, exists := pos[f.key]
		if newV == nil {
			if exists {
				edits = append(edits, edit{at: kp.start, end: kp.end, order: replaceFirst})
			}
			continue
		}
		text, err := renderField(f.key, newV, f.flow || (exists && kp.flow))
		if err != nil {
			return "", err
		}
		if exists {
			edits = append(edits, edit{at: kp.start, end: kp.end, order: replaceFirst, text: text})
			continue
		}
		at := d.insertionLine(i, pos, len(lines))
		edits = append(edits, edit{at: at, end: at, order: i, text: text})
	}
	if len(edits) == 0 {
		return d.fm, nil
	}
	// Apply bottom-up so earlier line numbers stay valid.
	sort.SliceStable(edits, func(a, b int) bool {
		if edits[a].at != edits[b].at {
			return edits[a].at > edits[b].at
		}
		return edits[a].order > edits[b].order
	})
	for _, e := range edits {
		repl := splitLines(d.withEOL(e.text))
		lines = append(lines[:e.at], append(repl, lines[e.end:]...)...)
	}
	out := strings.Join(lines, "")
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += d.eol
	}
	return out, nil
}

// withEOL gives text cairn rendered with "\n" the file's line endings.
func (d *document) withEOL(text string) string {
	if d.eol == "\n" {
		return text
	}
	return strings.ReplaceAll(text, "\n", d.eol)
}

// insertionLine places a new key after the nearest existing key that comes
// before it in canonical order, so cairn-added fields land where a reader
// expects them.
func (d *document) insertionLine(fieldIdx int, pos map[string]keyPos, nlines int) int {
	for j := fieldIdx - 1; j >= 0; j-- {
		if kp, ok := pos[fields[j].key]; ok {
			return kp.end
		}
	}
	for j := fieldIdx + 1; j < len(fields); j++ {
		if kp, ok := pos[fields[j].key]; ok {
			return kp.start
		}
	}
	end := nlines
	for end > 0 && strings.TrimSpace(splitLines(d.fm)[end-1]) == "" {
		end--
	}
	return end
}
