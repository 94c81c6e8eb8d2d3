package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// syntheticSession is a Claude Code transcript of about size bytes in the
// shapes of real ones: requests, replies, shell runs with long outputs,
// edits, a failure and its fix every so often.
func syntheticSession(size int) []byte {
	var b bytes.Buffer
	out := bytes.Repeat([]byte("ok  \tshop/module\t0.01s\n"), 120)
	line := func(v any) {
		data, _ := json.Marshal(v)
		b.Write(data)
		b.WriteByte('\n')
	}
	msg := func(i int, role string, content any) map[string]any {
		return map[string]any{"type": role, "uuid": fmt.Sprintf("u%d-%s", i, role), "sessionId": "bench", "cwd": "/home/dev/shop",
			"timestamp": fmt.Sprintf("2026-05-01T%02d:%02d:%02dZ", 8+i/3600%10, i/60%60, i%60), "message": map[string]any{"role": role, "content": content}}
	}
	for i := 0; b.Len() < size; i++ {
		line(msg(i, "user", fmt.Sprintf("please make the cart module handle case %d, and never change the public API", i)))
		line(msg(i, "assistant", []any{map[string]any{"type": "text", "text": "The issue is that the total is computed before discounts. I'll move the call."},
			map[string]any{"type": "tool_use", "id": fmt.Sprintf("t%d", i), "name": "Bash", "input": map[string]any{"command": "go test ./cart/..."}}}))
		result := string(out)
		isErr := i%5 == 0
		if isErr {
			result = "Exit code 1\n--- FAIL: TestTotal\n    total_test.go:10: got 90, want 85\nFAIL"
		}
		line(msg(i, "user", []any{map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("t%d", i), "content": result, "is_error": isErr}}))
		line(msg(i, "assistant", []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("e%d", i), "name": "Edit",
			"input": map[string]any{"file_path": fmt.Sprintf("/home/dev/shop/cart/f%d.go", i%40), "old_string": "a", "new_string": "b"}}}))
		line(msg(i, "user", []any{map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("e%d", i), "content": "The file has been updated."}}))
	}
	return b.Bytes()
}

var benchSize = 3 << 20

// BenchmarkCapture3MB reads a 3 MB transcript into clean turns and runs
// every extractor on it: the part of a Stop hook that grows with the
// session (planning and the commit do not).
func BenchmarkCapture3MB(b *testing.B) {
	data := syntheticSession(benchSize)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := transcript.Parse(bytes.NewReader(data), "bench.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := CaptureSession(context.Background(), s, Options{DryRun: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCaptureSmall(b *testing.B) {
	benchSize = 300 << 10
	defer func() { benchSize = 3 << 20 }()
	BenchmarkCapture3MB(b)
}
