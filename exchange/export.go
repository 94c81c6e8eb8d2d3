package exchange

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// Formats cairn exports and imports.
const (
	FormatJSONL       = "jsonl"
	FormatMarkdownZip = "markdown-zip"
	FormatClaudeMem   = "claude-mem"
	FormatFolder      = "folder" // basic-memory, Obsidian
	FormatCline       = "cline"
)

// ExportResult counts what an export wrote.
type ExportResult struct {
	Memories int `json:"memories"`
	Skipped  int `json:"skipped"` // invalid files, reported by doctor
}

// Export writes every valid memory of the vaults to w.
func Export(w io.Writer, vaults []*vault.Vault, format string) (ExportResult, error) {
	var res ExportResult
	switch format {
	case FormatJSONL:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return res, eachMemory(vaults, &res, func(v *vault.Vault, e vault.Entry) error {
			return enc.Encode(e.Memory)
		})
	case FormatMarkdownZip:
		zw := zip.NewWriter(w)
		err := eachMemory(vaults, &res, func(v *vault.Vault, e vault.Entry) error {
			data, err := os.ReadFile(e.Path)
			if err != nil {
				return err
			}
			f, err := zw.CreateHeader(&zip.FileHeader{Name: string(v.Scope) + "/" + e.URI.RelPath(), Method: zip.Deflate, Modified: e.Memory.Updated})
			if err != nil {
				return err
			}
			_, err = f.Write(data)
			return err
		})
		if err != nil {
			return res, err
		}
		return res, zw.Close()
	}
	return res, fmt.Errorf("%w: export format %q (jsonl or markdown-zip)", ErrFormat, format)
}

func eachMemory(vaults []*vault.Vault, res *ExportResult, fn func(*vault.Vault, vault.Entry) error) error {
	for _, v := range vaults {
		es, err := v.List(vault.ListOptions{Parse: true})
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.Err != nil || e.Memory == nil {
				res.Skipped++
				continue
			}
			e.Memory.URI = e.URI
			if err := fn(v, e); err != nil {
				return fmt.Errorf("%s: %w", filepath.Base(e.Path), err)
			}
			res.Memories++
		}
	}
	return nil
}

// candidateOf turns an exported memory back into a candidate.
func candidateOf(m *schema.Memory, source string) (c candidate) {
	c.Kind, c.Title, c.Summary, c.Body, c.Tags = m.Kind, m.Title, m.Summary, m.Body, m.Tags
	if m.Importance != nil {
		c.Importance = *m.Importance
	}
	c.Status = m.Status
	c.When = m.Updated
	c.Ref = source
	return c
}

// candidate is an imported record before it becomes an extract.Candidate.
type candidate struct {
	Kind       schema.Kind
	Title      string
	Summary    string
	Body       string
	Tags       []string
	Importance float64
	Status     schema.Status
	When       time.Time
	Ref        string // where it came from: file, row id
}
