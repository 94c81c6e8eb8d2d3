package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Errors of reading a transcript.
var (
	// ErrNotRegular: the path is a device, a FIFO or a directory; reading
	// it could block forever or never end.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the transcript is beyond what capture reads.
	ErrTooLarge = errors.New("transcript too large")
)

// Limits bound what one read takes.
const (
	// MaxFile is the largest transcript read. Real sessions reach tens of
	// megabytes, nearly all of it tool output; past this it is not a
	// conversation capture can learn from in a hook's time.
	MaxFile = 128 << 20
	// maxLine is the longest line read; a longer one is skipped with a
	// warning naming it.
	maxLine = 16 << 20
)

// Read parses a transcript of any supported format, told apart by its
// first lines: Codex rollouts carry a payload, cairn's journal a
// redaction version, Claude Code transcripts a message type.
func Read(path string) (*Session, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if fi.Size() > MaxFile {
		return nil, fmt.Errorf("%s: %w (%d MB, at most %d MB)", path, ErrTooLarge, fi.Size()>>20, MaxFile>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(io.LimitReader(f, MaxFile), path)
}

// Parse reads a transcript from r; path names it in warnings.
func Parse(r io.Reader, path string) (*Session, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	head, _ := br.Peek(64 << 10)
	var p parser
	switch detect(head) {
	case "codex":
		p = newCodexReader(path)
	case "journal":
		p = newJournalReader(path)
	default:
		p = newClaudeReader(path)
	}
	err := eachLine(br, func(n int, line []byte, tooLong bool) {
		if tooLong {
			p.session().warnf("line %d: longer than %d MB, skipped", n, maxLine>>20)
			return
		}
		p.line(n, line)
	})
	s := p.finish()
	s.settle()
	if err != nil {
		return s, fmt.Errorf("read %s: %w", path, err)
	}
	return s, nil
}

type parser interface {
	line(n int, raw []byte)
	finish() *Session
	session() *Session
}

func (r *claudeReader) session() *Session { return r.s }

// detect names the format from the first lines that parse.
func detect(head []byte) string {
	for i, l := range bytes.Split(head, []byte("\n")) {
		if i >= 20 {
			break
		}
		var probe map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(l), &probe) != nil {
			continue
		}
		if _, ok := probe["payload"]; ok {
			return "codex"
		}
		if _, ok := probe["redaction"]; ok {
			return "journal"
		}
		if _, ok := probe["type"]; ok {
			return "claude"
		}
	}
	return "claude"
}

// eachLine calls fn with every non-blank line and its 1-based number,
// holding at most maxLine bytes of one line; longer lines are reported,
// not read.
func eachLine(br *bufio.Reader, fn func(n int, line []byte, tooLong bool)) error {
	var buf []byte
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if buf != nil && len(buf) <= maxLine {
				buf = append(buf, chunk...)
			} else if buf == nil {
				buf = append([]byte{}, chunk...)
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return fmt.Errorf("line %d: %w", n+1, err)
		}
		line := chunk
		if buf != nil {
			if len(buf) <= maxLine {
				buf = append(buf, chunk...)
			}
			line = buf
		}
		if len(chunk) > 0 || buf != nil {
			n++
			if l := bytes.TrimSpace(line); len(l) > 0 {
				fn(n, l, len(line) > maxLine)
			}
		}
		buf = nil
		if err != nil {
			return nil
		}
	}
}
