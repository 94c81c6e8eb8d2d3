package schema

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// field binds one frontmatter key to a Memory field. get returns the value
// to write (nil when the key should be absent); decode reads a YAML node.
type field struct {
	key    string
	flow   bool // new lists render as [a, b] rather than one item per line
	get    func(m *Memory) any
	decode func(m *Memory, n *yaml.Node) error
}

// fields is the canonical order of keys in a file cairn writes.
var fields = []field{
	{key: "kind", get: func(m *Memory) any { return str(string(m.Kind)) },
		decode: func(m *Memory, n *yaml.Node) error { s, err := decodeString(n); m.Kind = Kind(s); return err }},
	{key: "title", get: func(m *Memory) any { return str(m.Title) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Title, err = decodeString(n); return }},
	{key: "summary", get: func(m *Memory) any { return str(m.Summary) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Summary, err = decodeString(n); return }},
	{key: "tags", flow: true, get: func(m *Memory) any { return list(m.Tags) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Tags, err = decodeList(n, true); return }},
	{key: "importance", get: func(m *Memory) any { return num(m.Importance) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Importance, err = decodeFloat(n); return }},
	{key: "confidence", get: func(m *Memory) any { return num(m.Confidence) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Confidence, err = decodeFloat(n); return }},
	{key: "pinned", get: func(m *Memory) any {
		if m.Pinned {
			return true
		}
		return nil
	}, decode: func(m *Memory, n *yaml.Node) (err error) { m.Pinned, err = decodeBool(n); return }},
	{key: "status", get: func(m *Memory) any { return str(string(m.Status)) },
		decode: func(m *Memory, n *yaml.Node) error { s, err := decodeString(n); m.Status = Status(s); return err }},
	{key: "gate", get: func(m *Memory) any { return str(m.Gate) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Gate, err = decodeString(n); return }},
	{key: "triggers", flow: true, get: func(m *Memory) any { return list(m.Triggers) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Triggers, err = decodeList(n, false); return }},
	{key: "links", get: func(m *Memory) any { return list(m.Links) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Links, err = decodeList(n, false); return }},
	{key: "supersedes", get: func(m *Memory) any {
		if len(m.Supersedes) == 1 {
			return m.Supersedes[0]
		}
		return list(m.Supersedes)
	}, decode: func(m *Memory, n *yaml.Node) (err error) { m.Supersedes, err = decodeList(n, false); return }},
	{key: "superseded_by", get: func(m *Memory) any { return str(m.SupersededBy) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.SupersededBy, err = decodeString(n); return }},
	{key: "source", get: func(m *Memory) any {
		if m.Source.empty() {
			return nil
		}
		s := *m.Source
		return &s
	}, decode: func(m *Memory, n *yaml.Node) error {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			m.Source = nil
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("want a mapping of session, transcript, turns, tools, extractor, version, code_commit")
		}
		var s Source
		if err := n.Decode(&s); err != nil {
			return cleanYAMLError(err)
		}
		m.Source = &s
		return nil
	}},
	{key: "created", get: func(m *Memory) any { return when(m.Created) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Created, err = decodeTime(n); return }},
	{key: "updated", get: func(m *Memory) any { return when(m.Updated) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Updated, err = decodeTime(n); return }},
	{key: "reviewed", get: func(m *Memory) any { return when(m.Reviewed) },
		decode: func(m *Memory, n *yaml.Node) (err error) { m.Reviewed, err = decodeTime(n); return }},
}

var fieldIndex = func() map[string]int {
	idx := make(map[string]int, len(fields))
	for i, f := range fields {
		idx[f.key] = i
	}
	return idx
}()

func str(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func list(s []string) any {
	if len(s) == 0 {
		return nil
	}
	return s
}

func num(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func when(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func decodeString(n *yaml.Node) (string, error) {
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("want a single value, found a %s", nodeKind(n))
	}
	return strings.TrimSpace(n.Value), nil
}

// decodeList takes a YAML list, or, for convenience in hand-written files, a
// single value; commaSplit also accepts "a, b".
func decodeList(n *yaml.Node, commaSplit bool) ([]string, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind == yaml.ScalarNode {
		if commaSplit && strings.Contains(n.Value, ",") {
			var out []string
			for _, p := range strings.Split(n.Value, ",") {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
			return out, nil
		}
		if v := strings.TrimSpace(n.Value); v != "" {
			return []string{v}, nil
		}
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("want a list, found a %s", nodeKind(n))
	}
	out := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: list items must be single values, found a %s", item.Line, nodeKind(item))
		}
		out = append(out, strings.TrimSpace(item.Value))
	}
	return out, nil
}

func decodeFloat(n *yaml.Node) (*float64, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("want a number, found a %s", nodeKind(n))
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	if err != nil {
		return nil, fmt.Errorf("want a number between 0 and 1, found %q", n.Value)
	}
	return &f, nil
}

func decodeBool(n *yaml.Node) (bool, error) {
	if isNull(n) {
		return false, nil
	}
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		return false, fmt.Errorf("want true or false, found %q", n.Value)
	}
	return b, nil
}

// timeLayouts are the forms people type in frontmatter; times without a
// zone are taken as UTC.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"}

// ParseTime parses a frontmatter time in any of the accepted layouts.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("want a date (2026-11-22) or time (2026-11-22T10:30:00Z), found %q", s)
}

func decodeTime(n *yaml.Node) (time.Time, error) {
	if isNull(n) {
		return time.Time{}, nil
	}
	if n.Kind != yaml.ScalarNode {
		return time.Time{}, fmt.Errorf("want a date or time, found a %s", nodeKind(n))
	}
	return ParseTime(n.Value)
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	default:
		return "value"
	}
}

func cleanYAMLError(err error) error {
	return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "yaml: "))
}
