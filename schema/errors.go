package schema

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Sentinel errors. Callers test with errors.Is; the CLI maps them to exit codes.
var (
	// ErrInvalid marks a memory that does not satisfy the schema.
	ErrInvalid = errors.New("invalid memory")
	// ErrBadURI marks a URI that cannot name a memory (wrong scheme, unsafe path).
	ErrBadURI = errors.New("bad memory URI")
)

// FieldError is one problem in one memory file: where it is and what is wrong.
type FieldError struct {
	File  string // path as the user knows it; may be empty for in-memory documents
	Line  int    // 1-based line in the file; 0 when unknown
	Field string // frontmatter key, "frontmatter" or "body"
	Msg   string
}

func (e FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ValidationError collects every problem found in one document, so a user
// fixes a file in one pass instead of one error per run.
type ValidationError struct {
	Problems []FieldError
}

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}

// Is makes errors.Is(err, ErrInvalid) true for every validation error.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

func (e *ValidationError) add(file string, line int, field, format string, args ...any) {
	e.Problems = append(e.Problems, FieldError{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// orNil returns nil when there is nothing to report, sorted by line otherwise.
func (e *ValidationError) orNil() error {
	if len(e.Problems) == 0 {
		return nil
	}
	sort.SliceStable(e.Problems, func(i, j int) bool { return e.Problems[i].Line < e.Problems[j].Line })
	return e
}
