package serve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect starts the MCP server on an in-memory transport and returns a
// client session from the same SDK.
func connect(t *testing.T) (*mcp.ClientSession, *Service) {
	t.Helper()
	s := newService(t)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := MCPServer(s, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, s
}

// call invokes a tool and returns its structured result as JSON text,
// failing on protocol errors; tool errors come back as isError.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, tc.Text)
			}
		}
		return strings.Join(msg, "\n"), true
	}
	raw, _ := json.Marshal(res.StructuredContent)
	return string(raw), false
}

func TestMCPToolsListed(t *testing.T) {
	cs, _ := connect(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"memory_search": true, "memory_get": true, "memory_context": true, "memory_remember": true,
		"memory_related": true, "memory_history": true, "memory_forget": true}
	for _, tool := range res.Tools {
		if !want[tool.Name] {
			t.Errorf("unexpected tool %s", tool.Name)
		}
		delete(want, tool.Name)
		if len(tool.Description) < 80 || tool.InputSchema == nil {
			t.Errorf("%s: description or schema too thin", tool.Name)
		}
	}
	if len(want) > 0 {
		t.Fatalf("missing tools: %v", want)
	}
}

func TestMCPTools(t *testing.T) {
	cs, s := connect(t)
	tests := []struct {
		tool    string
		args    map[string]any
		want    []string // substrings of the result
		notWant []string
		isError bool
	}{
		{tool: "memory_search", args: map[string]any{"query": "full-text search engine"}, want: []string{`"uri":"mem://project/decisions/use-bleve"`, `"score":`},
			notWant: []string{"SQLite FTS5 needs cgo"}},
		{tool: "memory_search", args: map[string]any{"query": "tests", "kinds": []string{"preference"}}, want: []string{"mem://user/preferences/table-tests"}},
		{tool: "memory_search", args: map[string]any{"query": "x", "kinds": []string{"gossip"}}, want: []string{"unknown kind"}, isError: true},
		{tool: "memory_get", args: map[string]any{"uri": "mem://project/decisions/use-bleve"}, want: []string{`"overview":"Bleve is pure Go and embeds in the binary."`, `"tier":1`},
			notWant: []string{"SQLite FTS5"}},
		{tool: "memory_get", args: map[string]any{"uri": "mem://project/decisions/use-bleve", "tier": 2}, want: []string{"SQLite FTS5 needs cgo"}},
		{tool: "memory_get", args: map[string]any{"uri": "mem://project/decisions/nope"}, want: []string{"not found"}, isError: true},
		{tool: "memory_get", args: map[string]any{"uri": "mem://project/../../etc/passwd"}, isError: true},
		{tool: "memory_context", args: map[string]any{"task": "fix the flaky port test"}, want: []string{"Flaky port test", `"markdown":`}},
		{tool: "memory_context", args: map[string]any{"budget": 5}, want: []string{"budget"}, isError: true},
		{tool: "memory_related", args: map[string]any{"uri": "mem://project/decisions/use-bleve"}, want: []string{`"results":`}},
		{tool: "memory_history", args: map[string]any{"uri": "mem://project/decisions/use-bleve"}, want: []string{`"session":"sess-b"`, `"session":"sess-a"`}},
		{tool: "memory_remember", args: map[string]any{"kind": "case", "title": "Docker build fails on arm64", "body": "Root cause: the base image is amd64 only. Fix: use the multi-arch image.", "session": "mcp-1"},
			want: []string{`"op":"create"`, `"uri":"mem://project/cases/docker-build-fails-on-arm64"`}},
		{tool: "memory_remember", args: map[string]any{"kind": "case", "title": "Docker build fails on arm64", "body": "Root cause: the base image is amd64 only. Fix: use the multi-arch image."},
			want: []string{`"op":"skip"`}},
		{tool: "memory_remember", args: map[string]any{"kind": "gossip", "title": "x"}, want: []string{"kind"}, isError: true},
		{tool: "memory_remember", args: map[string]any{"kind": "decision", "title": "two\nlines"}, want: []string{"one line"}, isError: true},
		{tool: "memory_forget", args: map[string]any{"uri": "mem://project/cases/flaky-port"}, want: []string{"why"}, isError: true},
		{tool: "memory_forget", args: map[string]any{"uri": "mem://project/cases/flaky-port", "why": "fixed for good by the new test harness"}, want: []string{`"commit":"`, "recoverable"}},
	}
	for _, tt := range tests {
		got, isErr := call(t, cs, tt.tool, tt.args)
		if isErr != tt.isError {
			t.Fatalf("%s %v: isError %v, want %v: %s", tt.tool, tt.args, isErr, tt.isError, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Fatalf("%s %v: missing %q in %s", tt.tool, tt.args, w, got)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(got, w) {
				t.Fatalf("%s %v: should not contain %q: %s", tt.tool, tt.args, w, got)
			}
		}
	}
	commits, _ := s.Vaults["project"].Log(vaultLog(2))
	if commits[0].Verb != "forget" || commits[0].Source != "test" || commits[1].Session != "mcp-1" {
		t.Fatalf("commits: %+v", commits)
	}
}

// Every card of a context pack says why it is in the pack.
func TestContextCardsSayWhy(t *testing.T) {
	s := newService(t)
	out, err := s.Context(context.Background(), ContextInput{Task: "fix the flaky port test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Cards) == 0 {
		t.Fatal("an empty pack: the test exercised nothing")
	}
	for _, c := range out.Cards {
		if c.Note == "" {
			t.Errorf("%s: no note says why it is in the pack", c.URI)
		}
	}
}
