package lazyre_test

import (
	"regexp"
	"sync"
	"testing"

	// Every package whose expressions are lazy: their declarations run
	// here, so CompileAll sees them all.
	_ "github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/internal/lazyre"
	_ "github.com/cairnmem/cairn/retrieve"
	_ "github.com/cairnmem/cairn/schema"
	_ "github.com/cairnmem/cairn/transcript"
)

func TestEveryExpressionCompiles(t *testing.T) {
	if expr, err := lazyre.CompileAll(); err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
}

func TestCompileAllReportsABadExpression(t *testing.T) {
	lazyre.New(`(unclosed`)
	if expr, err := lazyre.CompileAll(); err == nil || expr != `(unclosed` {
		t.Fatalf("CompileAll = %q, %v; want the bad expression", expr, err)
	}
}

func TestLazyMatchesEager(t *testing.T) {
	const expr = `(?i)\b(\w+)@(\w+)\.com\b`
	lazy, eager := lazyre.New(expr), regexp.MustCompile(expr)
	s := "mail Ana@Example.com or bo@corp.com, not x@y.org"
	if lazy.MatchString(s) != eager.MatchString(s) ||
		lazy.FindString(s) != eager.FindString(s) ||
		lazy.ReplaceAllString(s, "<$2>") != eager.ReplaceAllString(s, "<$2>") ||
		len(lazy.FindAllStringSubmatchIndex(s, -1)) != len(eager.FindAllStringSubmatchIndex(s, -1)) ||
		lazy.String() != eager.String() {
		t.Fatal("lazy and eager expressions disagree")
	}
	from := lazyre.From(eager)
	if from.Regexp() != eager || from.FindString(s) != "Ana@Example.com" {
		t.Fatal("From does not use the compiled expression")
	}
}

// Goroutines of one process (an MCP server) use an expression first at
// the same time: it is compiled once.
func TestConcurrentFirstUse(t *testing.T) {
	r := lazyre.New(`a+b`)
	var wg sync.WaitGroup
	res := make([]*regexp.Regexp, 8)
	for i := range res {
		wg.Add(1)
		go func() { defer wg.Done(); res[i] = r.Regexp() }()
	}
	wg.Wait()
	for _, x := range res {
		if x != res[0] {
			t.Fatal("compiled more than once")
		}
	}
}
