package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef"

type client struct {
	t   *testing.T
	url string
}

func newAPI(t *testing.T, addr string) (*client, *Service) {
	t.Helper()
	s := newService(t)
	h, err := Handler(s, HTTPOptions{Addr: addr, Token: testToken, MaxBody: 64 << 10, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &client{t: t, url: srv.URL}, s
}

// do sends a request with the Host the server is bound to unless the
// headers say otherwise, and decodes the JSON answer.
func (c *client) do(method, path, body string, headers map[string]string) (int, map[string]any) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Host = "127.0.0.1:7411"
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &out); err != nil {
			c.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		c.t.Fatalf("%s %s: CORS header set", method, path)
	}
	return res.StatusCode, out
}

var auth = map[string]string{"Authorization": "Bearer " + testToken}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestHTTPReadEndpoints(t *testing.T) {
	c, _ := newAPI(t, "127.0.0.1:7411")
	tests := []struct {
		path string
		want string // a substring of the JSON answer
	}{
		{"/api/health", `"scope":"project"`},
		{"/api/search?q=full-text+search", `"uri":"mem://project/decisions/use-bleve"`},
		{"/api/search?q=tests&kind=preference", `"uri":"mem://user/preferences/table-tests"`},
		{"/api/context?task=search+engine", `Use bleve for full-text search`},
		{"/api/tree", `"uri":"mem://project/cases/flaky-port"`},
		{"/api/tree?prefix=mem://user/", `"uri":"mem://user/preferences/table-tests"`},
		{"/api/memories/project/decisions/use-bleve?html=1", `<h2>Details</h2>`},
		{"/api/memories/project/decisions/use-bleve?tier=0", `"l0":"Bleve is pure Go and embeds in the binary."`},
		{"/api/memories/project/decisions/use-bleve?raw=1", `"raw":"---\nkind: decision`},
		{"/api/history?uri=mem://project/decisions/use-bleve", `"session":"sess-b"`},
		{"/api/diff?uri=mem://project/decisions/use-bleve", `+Bleve is pure Go and embeds in the binary.`},
		{"/api/related?uri=mem://project/decisions/use-bleve", `"results"`},
		{"/api/sessions", `"id":"sess-b"`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, out := c.do("GET", tt.path, "", nil)
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(out)
			raw := b.String()
			if code != 200 || !strings.Contains(raw, tt.want) {
				t.Fatalf("status %d, want 200 and %s in:\n%s", code, tt.want, raw)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	c, _ := newAPI(t, "127.0.0.1:7411")
	tests := []struct {
		name, method, path, body string
		headers                  map[string]string
		status                   int
		code                     string
	}{
		{"rebinding host", "GET", "/api/health", "", map[string]string{"Host": "attacker.example:7411"}, 421, "bad_host"},
		{"wrong port", "GET", "/api/health", "", map[string]string{"Host": "127.0.0.1:9999"}, 421, "bad_host"},
		{"delete without token", "DELETE", "/api/memories/project/cases/flaky-port?why=x", "", nil, 401, "unauthorized"},
		{"wrong token", "POST", "/api/memories", `{}`, map[string]string{"Authorization": "Bearer nope"}, 401, "unauthorized"},
		{"cross-origin write", "POST", "/api/memories", `{}`, map[string]string{"Authorization": "Bearer " + testToken, "Origin": "https://evil.example"}, 403, "bad_origin"},
		{"preflight", "OPTIONS", "/api/memories", "", nil, 405, "no_cors"},
		{"unknown memory", "GET", "/api/memories/project/decisions/nope", "", nil, 404, "not_found"},
		{"escaping path", "GET", "/api/memories/project/..%2F..%2Fetc%2Fpasswd", "", nil, 400, "bad_request"},
		{"bad tier", "GET", "/api/memories/project/decisions/use-bleve?tier=7", "", nil, 400, "bad_request"},
		{"bad limit", "GET", "/api/search?q=x&limit=many", "", nil, 400, "bad_request"},
		{"bad kind", "GET", "/api/search?q=x&kind=gossip", "", nil, 400, "bad_request"},
		{"unknown endpoint", "GET", "/api/nope", "", nil, 404, "not_found"},
		{"garbage body", "POST", "/api/memories", `{"kind":`, auth, 400, "bad_request"},
		{"unknown field", "POST", "/api/memories", `{"kind":"decision","title":"x","color":"red"}`, auth, 400, "bad_request"},
		{"too large", "PUT", "/api/memories/project/decisions/use-bleve", `{"raw":"` + strings.Repeat("x", 70<<10) + `"}`, auth, 413, "too_large"},
		{"invalid memory", "PUT", "/api/memories/project/decisions/use-bleve", `{"raw":"---\nkind: gossip\ntitle: x\n---\n"}`, auth, 422, "invalid"},
		{"secret", "PUT", "/api/memories/project/decisions/use-bleve", `{"raw":"---\nkind: decision\ntitle: x\n---\nkey AKIAABCDEFGHIJKLMNOP\n"}`, auth, 422, "secret"},
		{"forget without why", "DELETE", "/api/memories/project/cases/flaky-port", "", auth, 400, "bad_request"},
		{"stale edit", "PUT", "/api/memories/project/decisions/use-bleve", `{"raw":"---\nkind: decision\ntitle: Use bleve\n---\nx\n","base":"HEAD~3"}`, auth, 409, "conflict"},
		{"create over existing", "PUT", "/api/memories/project/decisions/use-bleve?create=1", `{"raw":"---\nkind: decision\ntitle: Use bleve\n---\nx\n"}`, auth, 409, "conflict"},
		{"related of a missing memory", "GET", "/api/related?uri=mem://project/decisions/nope", "", nil, 404, "not_found"},
		{"history of a missing memory", "GET", "/api/history?uri=mem://project/decisions/nope", "", nil, 404, "not_found"},
		{"cookie write without the request header", "POST", "/api/memories", `{}`, map[string]string{"Cookie": "cairn_session=forged"}, 401, "unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := c.do(tt.method, tt.path, tt.body, tt.headers)
			if code != tt.status || errCode(out) != tt.code {
				t.Fatalf("got %d %q, want %d %q: %v", code, errCode(out), tt.status, tt.code, out)
			}
			if msg, _ := out["error"].(map[string]any)["message"].(string); msg == "" {
				t.Fatal("error without a message")
			}
		})
	}
}

func TestHTTPWrites(t *testing.T) {
	c, s := newAPI(t, "127.0.0.1:7411")
	// Remember goes through policy: new, then a duplicate is skipped.
	body := `{"kind":"decision","title":"Use goreleaser for releases","body":"It builds every platform. Token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB stays out.","session":"web-1"}`
	code, out := c.do("POST", "/api/memories", body, auth)
	if code != 201 || out["op"] != "create" || out["commit"] == "" {
		t.Fatalf("remember: %d %v", code, out)
	}
	uri := out["uri"].(string)
	if red, _ := out["redacted"].([]any); len(red) != 1 {
		t.Fatalf("redacted: %v", out["redacted"])
	}
	if code, out = c.do("POST", "/api/memories", body, auth); code != 200 || out["op"] != "skip" {
		t.Fatalf("duplicate remember: %d %v", code, out)
	}
	path := "/api/memories/" + strings.TrimPrefix(uri, "mem://")
	_, got := c.do("GET", path+"?raw=1", "", nil)
	raw := got["raw"].(string)
	if strings.Contains(raw, "ghp_") {
		t.Fatalf("secret reached the file:\n%s", raw)
	}
	// An edit from the current head commits; the file changes.
	edited := strings.Replace(raw, "It builds every platform.", "It builds every platform and signs them.", 1)
	req, _ := json.Marshal(map[string]string{"raw": edited, "base": got["head"].(string), "message": "more detail"})
	if code, out = c.do("PUT", path, string(req), auth); code != 200 || out["commit"] == "" {
		t.Fatalf("edit: %d %v", code, out)
	}
	m, err := s.Get(uri, 2, false)
	if err != nil || !strings.Contains(m.Memory.Body, "signs them") {
		t.Fatalf("after edit: %v %+v", err, m)
	}
	// Create at an exact URI, then delete it.
	newRaw := `{"raw":"---\nkind: pattern\ntitle: Errors wrap with context\n---\nUse fmt.Errorf with %w.\n"}`
	if code, out = c.do("PUT", "/api/memories/project/patterns/wrap-errors?create=1", newRaw, auth); code != 201 {
		t.Fatalf("create: %d %v", code, out)
	}
	if code, out = c.do("DELETE", "/api/memories/project/patterns/wrap-errors?why=duplicate+of+the+style+guide", "", auth); code != 200 || out["commit"] == "" {
		t.Fatalf("delete: %d %v", code, out)
	}
	if code, _ = c.do("GET", "/api/memories/project/patterns/wrap-errors", "", nil); code != 404 {
		t.Fatalf("deleted memory still served: %d", code)
	}
	commits, _ := s.Vaults["project"].Log(vaultLog(1))
	if commits[0].Source != "test" || !strings.Contains(commits[0].Body, "duplicate of the style guide") {
		t.Fatalf("forget commit: %+v", commits[0])
	}
}

func TestHTTPNonLoopbackNeedsTokenForReads(t *testing.T) {
	c, _ := newAPI(t, "192.0.2.10:7411")
	if code, out := c.do("GET", "/api/health", "", map[string]string{"Host": "192.0.2.10:7411"}); code != 401 {
		t.Fatalf("read without token on a public bind: %d %v", code, out)
	}
	if code, _ := c.do("GET", "/api/health", "", map[string]string{"Host": "192.0.2.10:7411", "Authorization": "Bearer " + testToken}); code != 200 {
		t.Fatalf("read with token: %d", code)
	}
	if _, err := Handler(newService(t), HTTPOptions{Addr: "0.0.0.0:7411"}); err == nil {
		t.Fatal("a public bind without a token was accepted")
	}
}

func TestViewerPage(t *testing.T) {
	c, _ := newAPI(t, "127.0.0.1:7411")
	req, _ := http.NewRequest("GET", c.url+"/", nil)
	req.Host = "127.0.0.1:7411"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Fatalf("viewer page: %d %s", res.StatusCode, res.Header)
	}
	// Any local process can fetch the page: it must not hand out the token.
	if strings.Contains(string(page), testToken) {
		t.Fatal("the viewer page carries the API token")
	}
	for _, a := range []string{"/assets/app.js", "/assets/style.css"} {
		req, _ := http.NewRequest("GET", c.url+a, nil)
		req.Host = "127.0.0.1:7411"
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %v %v", a, err, res.Status)
		}
		res.Body.Close()
	}
}

func TestHTTPReviewInbox(t *testing.T) {
	c, s := newAPI(t, "127.0.0.1:7411")
	code, out := c.do("GET", "/api/review", "", nil)
	pending, _ := out["pending"].([]any)
	if code != 200 || len(pending) != 1 || pending[0].(map[string]any)["uri"] != "mem://project/cases/flaky-port" {
		t.Fatalf("inbox: %d %v", code, out)
	}
	if r, _ := pending[0].(map[string]any)["rule"].(string); !strings.Contains(r, "cause named") {
		t.Fatalf("the inbox shows why capture wrote it: %v", pending[0])
	}
	keep := `{"uri":"mem://project/cases/flaky-port","decision":"keep"}`
	if code, out = c.do("POST", "/api/review", keep, nil); code != 401 {
		t.Fatalf("a decision is a write: it needs the token, got %d %v", code, out)
	}
	if code, out = c.do("POST", "/api/review", keep, auth); code != 200 || out["commit"] == "" {
		t.Fatalf("keep: %d %v", code, out)
	}
	if code, out = c.do("POST", "/api/review", keep, auth); code != 400 || errCode(out) != "bad_request" {
		t.Fatalf("keeping twice: %d %v", code, out)
	}
	if _, out = c.do("GET", "/api/review", "", nil); len(out["pending"].([]any)) != 0 {
		t.Fatalf("kept memory left the inbox: %v", out)
	}
	commits, _ := s.Vaults["project"].Log(vaultLog(1))
	if commits[0].Verb != "review" {
		t.Fatalf("the decision is a commit of its own: %+v", commits[0])
	}
	bad := `{"uri":"mem://project/cases/flaky-port","decision":"maybe"}`
	if code, out = c.do("POST", "/api/review", bad, auth); code != 400 {
		t.Fatalf("unknown decision: %d %v", code, out)
	}
	if code, out = c.do("POST", "/api/review", `{"uri":"mem://project/cases/nope","decision":"forget"}`, auth); code != 404 {
		t.Fatalf("forget a missing memory: %d %v", code, out)
	}
}

// A body announced larger than the cap is refused before it is read: the
// client's Content-Length of 10^12 gets 413 at once.
func TestHTTPRefusesHugeContentLengthEarly(t *testing.T) {
	c, _ := newAPI(t, "127.0.0.1:7411")
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST /api/memories HTTP/1.1\r\nHost: 127.0.0.1:7411\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n{", testToken)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", res.StatusCode)
	}
}

// The login link gives a browser a session cookie, once; the cookie then
// authorizes writes that carry the request header.
func TestViewerLogin(t *testing.T) {
	s := newService(t)
	h, err := Handler(s, HTTPOptions{Addr: "127.0.0.1:7411", Token: testToken, Version: "test", LoginCode: "code-1"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string, hdr map[string]string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Host = "127.0.0.1:7411"
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := get("/?login=code-1", nil)
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == sessionCookie {
			cookie = c
		}
	}
	if res.StatusCode != http.StatusSeeOther || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("login: %d %v", res.StatusCode, res.Cookies())
	}
	if again := get("/?login=code-1", nil); again.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the one-time code worked twice: %d", again.StatusCode)
	}
	if tok := get("/?login="+testToken, nil); tok.StatusCode != http.StatusSeeOther {
		t.Fatalf("login with the API token: %d", tok.StatusCode)
	}
	write := func(withHeader bool) int {
		req, _ := http.NewRequest("DELETE", srv.URL+"/api/memories/project/cases/flaky-port?why=obsolete", nil)
		req.Host = "127.0.0.1:7411"
		req.AddCookie(cookie)
		if withHeader {
			req.Header.Set(requestHeader, "1")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := write(false); code != http.StatusUnauthorized {
		t.Fatalf("cookie write without %s: %d", requestHeader, code)
	}
	if code := write(true); code != http.StatusOK {
		t.Fatalf("cookie write: %d", code)
	}
}
