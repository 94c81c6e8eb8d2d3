package exchange

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/schema"
)

// ErrFormat marks an input cairn cannot read.
var ErrFormat = errors.New("unsupported format")

// Detect names the format of a file or folder: .jsonl, .zip, a SQLite
// database, a Cline memory bank, or any folder of markdown.
func Detect(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		for _, f := range []string{"projectbrief.md", "activeContext.md", "systemPatterns.md"} {
			if _, err := os.Stat(filepath.Join(path, f)); err == nil {
				return FormatCline, nil
			}
		}
		return FormatFolder, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".zip":
		return FormatMarkdownZip, nil
	}
	head := make([]byte, 16)
	if f, err := os.Open(path); err == nil {
		_, _ = f.Read(head)
		f.Close()
		if string(head) == "SQLite format 3\x00" {
			return FormatClaudeMem, nil
		}
	}
	return "", fmt.Errorf("%w: %s (give --format: jsonl, markdown-zip, claude-mem, folder, cline)", ErrFormat, path)
}

// Read turns a source into candidates, with warnings for records skipped.
func Read(path, format string) ([]candidate, []string, error) {
	switch format {
	case FormatJSONL:
		return readJSONL(path)
	case FormatMarkdownZip:
		return readZip(path)
	case FormatFolder:
		return readFolder(path)
	case FormatCline:
		return readCline(path)
	case FormatClaudeMem:
		return readClaudeMem(path)
	}
	return nil, nil, fmt.Errorf("%w: %q", ErrFormat, format)
}

// ImportResult is what an import found and did.
type ImportResult struct {
	Format   string          `json:"format"`
	Found    int             `json:"found"`
	Warnings []string        `json:"warnings,omitempty"`
	Result   *extract.Result `json:"result"`
}

// Import reads a source and captures it: redaction, dedup and policy
// decide what is written; one commit per vault names the source.
func Import(ctx context.Context, path, format string, o extract.Options) (*ImportResult, error) {
	if format == "" {
		f, err := Detect(path)
		if err != nil {
			return nil, err
		}
		format = f
	}
	cands, warns, err := Read(path, format)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{Format: format, Found: len(cands), Warnings: warns}
	var out []extract.Candidate
	for _, c := range cands {
		info, ok := c.Kind.Info()
		if !ok {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: unknown kind %q, skipped", c.Ref, c.Kind))
			continue
		}
		scope := schema.ScopeProject
		if info.UserScoped {
			scope = schema.ScopeUser
		}
		if strings.TrimSpace(c.Title) == "" {
			res.Warnings = append(res.Warnings, c.Ref+": no title, skipped")
			continue
		}
		status := c.Status
		if status == "" || (info.Policy != schema.PolicyClosable && (status == schema.StatusOpen || status == schema.StatusDone)) {
			status = schema.DefaultStatus(c.Kind)
		}
		out = append(out, extract.Candidate{Kind: c.Kind, Scope: scope, Title: oneLine(c.Title, 120), Summary: oneLine(c.Summary, 300), Body: strings.TrimSpace(c.Body),
			Tags: c.Tags, Importance: c.Importance, Status: status, Extractor: "import:" + format, Turns: []string{c.Ref}})
	}
	abs, _ := filepath.Abs(path)
	o.Meta.Source = "import:" + format
	o.Meta.Transcript = abs
	if o.Meta.Agent == "" {
		o.Meta.Agent = "import"
	}
	res.Result, err = extract.CaptureCandidates(ctx, out, o)
	return res, err
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := strings.LastIndexByte(s[:max], ' ')
		if cut < max/2 {
			cut = max
		}
		s = strings.TrimRight(s[:cut], ",;: ") + "…"
	}
	return s
}

func readJSONL(path string) ([]candidate, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []candidate
	var warns []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var m schema.Memory
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: not a memory: %v", path, n, err))
			continue
		}
		out = append(out, candidateOf(&m, fmt.Sprintf("%s:%d", filepath.Base(path), n)))
	}
	return out, warns, sc.Err()
}
