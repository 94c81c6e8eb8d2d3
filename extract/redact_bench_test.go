package extract

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScan measures redaction over real Claude Code transcript text,
// which every hook event and every capture passes through.
func BenchmarkScan(b *testing.B) {
	var text string
	for _, name := range []string{"representative_messages.jsonl", "session_b.jsonl", "edge_cases.jsonl", "todowrite_examples.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "shared", "samples", "claude-code", name))
		if err != nil {
			b.Skip("samples not found")
		}
		text += string(data)
	}
	r, _ := NewRedactor(nil)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Scan(text)
	}
}
