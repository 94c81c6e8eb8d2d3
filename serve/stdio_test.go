package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

const initLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n"

type rpcAnswer struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// runStdio serves input to the end, as a client that writes its requests
// and closes stdin, and returns every answer by id (fmt of the id).
func runStdio(t *testing.T, s *Service, input string, maxLine int) (map[string]rpcAnswer, []rpcAnswer) {
	t.Helper()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := MCPServer(s, "test").Run(ctx, &StdioTransport{In: strings.NewReader(input), Out: &out, MaxLine: maxLine})
	if err != nil {
		t.Fatalf("server ended with %v", err)
	}
	byID := map[string]rpcAnswer{}
	var all []rpcAnswer
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a rpcAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("stdout line is not JSON: %q", l)
		}
		byID[fmt.Sprint(a.ID)] = a
		all = append(all, a)
	}
	return byID, all
}

// A line that is not a JSON-RPC message gets a JSON-RPC error and the
// server reads on: the ping after each one is answered.
func TestStdioMalformedLines(t *testing.T) {
	s := newService(t)
	cases := []struct {
		name, line string
		code       int
	}{
		{"not JSON", `hello there`, -32700},
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700},
		{"empty array", `[]`, -32600},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
		{"scalar", `42`, -32600},
		{"missing jsonrpc", `{"id":1,"method":"ping"}`, -32600},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, -32600},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":7}`, -32600},
		{"no method", `{"jsonrpc":"2.0","id":1}`, -32600},
		{"NUL bytes", "{\"jsonrpc\":\"2.0\",\x00\"id\":1,\"method\":\"ping\"}", -32700},
		{"oversized frame", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`, -32600},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			input := initLine + tc.line + "\n" + `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"
			byID, all := runStdio(t, s, input, 0)
			var refused *rpcAnswer
			for i := range all {
				if all[i].Error != nil && all[i].ID != "after" && all[i].ID != "init" {
					refused = &all[i]
				}
			}
			if refused == nil || refused.Error.Code != tc.code {
				t.Fatalf("answers %+v, want an error %d", all, tc.code)
			}
			if a, ok := byID["after"]; !ok || a.Error != nil {
				t.Fatalf("the ping after the bad line was not answered: %+v", all)
			}
		})
	}
}

// A client that writes its requests and closes stdin gets every answer,
// and every write it was told about is committed (and nothing else).
func TestStdioAnswersEverythingReadBeforeEOF(t *testing.T) {
	s := newService(t)
	var in strings.Builder
	in.WriteString(initLine)
	const n = 40
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_remember","arguments":{"kind":"event","title":"Deploy number %d went out","body":"Run %d of the close-stdin test."}}}`+"\n", i, i, i)
	}
	byID, _ := runStdio(t, s, in.String(), 0)
	answered, ok := 0, 0
	for i := 0; i < n; i++ {
		a, found := byID[fmt.Sprint(i)]
		if !found {
			t.Errorf("request %d was never answered", i)
			continue
		}
		answered++
		// Forty writers at once may find the cache busy (slow machines,
		// the race detector): an error is an answer, but a success must
		// name its commit.
		if a.Error == nil && strings.Contains(string(a.Result), `"commit"`) && !strings.Contains(string(a.Result), `"isError":true`) {
			ok++
		}
	}
	entries, err := s.Vaults[schema.ScopeProject].List(vaultListEvents())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != ok {
		t.Fatalf("%d events committed, %d acknowledged with a commit", len(entries), ok)
	}
	if ok == 0 {
		t.Fatal("no write succeeded")
	}
	t.Logf("MCP requests answered after stdin closed: %d/%d (%d committed)", answered, n, ok)
}

func vaultListEvents() vault.ListOptions { return vault.ListOptions{Prefix: "events/"} }
