package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/schema"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// HTTPOptions configures the API handler.
type HTTPOptions struct {
	// Addr is the bound address (host:port); requests naming any other
	// host are refused, which defeats DNS rebinding.
	Addr string
	// Token authorizes state-changing requests, and every request when the
	// server is not on loopback.
	Token   string
	MaxBody int64 // bytes
	Version string
	// LoginCode, when set, is the one-time code of the login link
	// (/?login=<code>) that gives a browser its session.
	LoginCode string
}

// loopback reports whether a bound address is reachable only locally.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type api struct {
	s     *Service
	o     HTTPOptions
	local bool
	hosts map[string]bool
	page  *template.Template
	files fs.FS
	md    goldmark.Markdown
	sess  sessions
}

// Handler serves the JSON API under /api/ and the web viewer at /.
func Handler(s *Service, o HTTPOptions) (http.Handler, error) {
	if o.MaxBody <= 0 {
		o.MaxBody = 512 << 10
	}
	a := &api{s: s, o: o, local: loopback(o.Addr), hosts: map[string]bool{}, md: goldmark.New(goldmark.WithExtensions(extension.GFM)), sess: sessions{code: o.LoginCode}}
	host, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", o.Addr, err)
	}
	a.hosts[net.JoinHostPort(host, port)] = true
	if a.local {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			a.hosts[net.JoinHostPort(h, port)] = true
		}
	}
	if !a.local && o.Token == "" {
		return nil, fmt.Errorf("%w: a server on %s needs a token", ErrBadRequest, o.Addr)
	}
	if a.page, a.files, err = webAssets(); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", a.health)
	mux.HandleFunc("GET /api/search", a.search)
	mux.HandleFunc("GET /api/context", a.context)
	mux.HandleFunc("GET /api/tree", a.tree)
	mux.HandleFunc("GET /api/sessions", a.sessions)
	mux.HandleFunc("GET /api/related", a.related)
	mux.HandleFunc("GET /api/history", a.history)
	mux.HandleFunc("GET /api/diff", a.diff)
	mux.HandleFunc("GET /api/memories/{scope}/{path...}", a.get)
	mux.HandleFunc("PUT /api/memories/{scope}/{path...}", a.put)
	mux.HandleFunc("DELETE /api/memories/{scope}/{path...}", a.del)
	mux.HandleFunc("POST /api/memories", a.create)
	mux.HandleFunc("GET /api/review", a.inbox)
	mux.HandleFunc("POST /api/review", a.review)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(a.files)))
	mux.HandleFunc("GET /{$}", a.index)
	return a.guard(mux), nil
}

// guard applies the rules every request obeys before any handler runs.
func (a *api) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
		h.Set("Cache-Control", "no-store")
		if !a.hosts[strings.ToLower(r.Host)] {
			writeError(w, http.StatusMisdirectedRequest, "bad_host", fmt.Sprintf("host %q is not this server; use http://%s", r.Host, a.o.Addr))
			return
		}
		if r.Method == http.MethodOptions {
			// No CORS: preflights get no allowance, so browsers keep other
			// origins out.
			writeError(w, http.StatusMethodNotAllowed, "no_cors", "cross-origin requests are not allowed")
			return
		}
		state := r.Method != http.MethodGet && r.Method != http.MethodHead
		if origin := r.Header.Get("Origin"); origin != "" && state && !a.sameOrigin(origin) {
			writeError(w, http.StatusForbidden, "bad_origin", "cross-origin requests are not allowed")
			return
		}
		needToken := state || (!a.local && strings.HasPrefix(r.URL.Path, "/api/"))
		if needToken && !tokenOK(bearer(r), a.o.Token) && !a.sessionOK(r, state) {
			writeError(w, http.StatusUnauthorized, "unauthorized", "this request needs the token: Authorization: Bearer <token> (cairn serve --print-token), or a viewer logged in through the link cairn serve prints")
			return
		}
		// Refuse an announced body over the cap before reading any of it.
		if r.ContentLength > a.o.MaxBody {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body of %d bytes; the limit is %d (serve.max_body_kb)", r.ContentLength, a.o.MaxBody))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, a.o.MaxBody)
		next.ServeHTTP(w, r)
	})
}

func (a *api) sameOrigin(origin string) bool {
	for h := range a.hosts {
		if origin == "http://"+h {
			return true
		}
	}
	return false
}

func bearer(r *http.Request) string {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return r.Header.Get("X-Cairn-Token")
}

// index serves the viewer, or logs a browser in (session.go). The page
// holds no secret.
func (a *api) index(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("login") {
		a.login(w, r)
		return
	}
	var b bytes.Buffer
	if err := a.page.Execute(&b, map[string]any{"Version": a.o.Version}); err != nil {
		writeErr(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

func (a *api) health(w http.ResponseWriter, r *http.Request) {
	type vaultInfo struct {
		Scope string `json:"scope"`
		Root  string `json:"root"`
		Head  string `json:"head"`
	}
	out := struct {
		OK      bool        `json:"ok"`
		Version string      `json:"version"`
		Vaults  []vaultInfo `json:"vaults"`
	}{OK: true, Version: a.o.Version}
	for _, sc := range a.s.scopes() {
		v := a.s.vault(sc)
		head, _ := v.Head()
		out.Vaults = append(out.Vaults, vaultInfo{Scope: string(sc), Root: v.Root, Head: head})
	}
	writeJSON(w, http.StatusOK, out)
}

func intParam(r *http.Request, name string) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %s must be a number", ErrBadRequest, name)
	}
	return n, nil
}

func list(r *http.Request, name string) []string {
	var out []string
	for _, v := range r.URL.Query()[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func (a *api) search(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r, "limit")
	if err != nil {
		writeErr(w, err)
		return
	}
	q := r.URL.Query()
	cards, err := a.s.Search(r.Context(), SearchInput{Query: q.Get("q"), Kinds: list(r, "kind"), Tags: list(r, "tag"), Since: q.Get("since"), Limit: limit})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": cards})
}

func (a *api) context(w http.ResponseWriter, r *http.Request) {
	budget, err := intParam(r, "budget")
	if err != nil {
		writeErr(w, err)
		return
	}
	out, err := a.s.Context(r.Context(), ContextInput{Task: r.URL.Query().Get("task"), Budget: budget})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) tree(w http.ResponseWriter, r *http.Request) {
	out, err := a.s.Tree(r.Context(), r.URL.Query().Get("prefix"))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) sessions(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r, "limit")
	if err != nil {
		writeErr(w, err)
		return
	}
	out, err := a.s.Sessions(r.Context(), limit)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

func (a *api) related(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r, "limit")
	if err != nil {
		writeErr(w, err)
		return
	}
	cards, err := a.s.Related(r.Context(), r.URL.Query().Get("uri"), limit)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": cards})
}

func (a *api) history(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r, "limit")
	if err != nil {
		writeErr(w, err)
		return
	}
	commits, err := a.s.History(r.URL.Query().Get("uri"), limit)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"commits": commits})
}

func (a *api) diff(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	out, err := a.s.Diff(q.Get("uri"), q.Get("from"), q.Get("to"))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// pathURI turns /api/memories/{scope}/{path...} into a URI string.
func pathURI(r *http.Request) string {
	return schema.Scheme + r.PathValue("scope") + "/" + strings.TrimSuffix(r.PathValue("path"), ".md")
}

// memoryOut is a memory as the API returns it, with rendered HTML for
// the viewer when asked.
type memoryOut struct {
	*MemoryView
	HTML string `json:"html,omitempty"`
}

func (a *api) get(w http.ResponseWriter, r *http.Request) {
	tier := 2
	if r.URL.Query().Has("tier") {
		t, err := intParam(r, "tier")
		if err != nil {
			writeErr(w, err)
			return
		}
		tier = t
	}
	q := r.URL.Query()
	m, err := a.s.Get(pathURI(r), tier, q.Get("raw") == "1")
	if err != nil {
		writeErr(w, err)
		return
	}
	out := memoryOut{MemoryView: m}
	if q.Get("html") == "1" && m.Memory.Body != "" {
		var b bytes.Buffer
		// goldmark leaves raw HTML out unless told otherwise: a memory
		// cannot inject script into the viewer.
		if err := a.md.Convert([]byte(m.Memory.Body), &b); err == nil {
			out.HTML = b.String()
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return err
		}
		return fmt.Errorf("%w: body is not the JSON expected: %v", ErrBadRequest, err)
	}
	return nil
}

func (a *api) put(w http.ResponseWriter, r *http.Request) {
	var in SaveInput
	if err := decode(r, &in); err != nil {
		writeErr(w, err)
		return
	}
	if in.URI != "" && in.URI != pathURI(r) {
		writeError(w, http.StatusBadRequest, "bad_request", "uri in the body differs from the path")
		return
	}
	in.URI = pathURI(r)
	in.Create = r.URL.Query().Get("create") == "1"
	out, err := a.s.Save(r.Context(), in)
	if err != nil {
		writeErr(w, err)
		return
	}
	status := http.StatusOK
	if in.Create {
		status = http.StatusCreated
	}
	writeJSON(w, status, out)
}

func (a *api) del(w http.ResponseWriter, r *http.Request) {
	why := r.URL.Query().Get("why")
	commit, err := a.s.Forget(r.Context(), pathURI(r), why, "")
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"uri": pathURI(r), "commit": commit})
}

func (a *api) create(w http.ResponseWriter, r *http.Request) {
	var in RememberInput
	if err := decode(r, &in); err != nil {
		writeErr(w, err)
		return
	}
	out, err := a.s.Remember(r.Context(), in)
	if err != nil {
		writeErr(w, err)
		return
	}
	status := http.StatusOK
	if out.Commit != "" {
		status = http.StatusCreated
	}
	writeJSON(w, status, out)
}

func (a *api) inbox(w http.ResponseWriter, r *http.Request) {
	cards, err := a.s.Inbox()
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"pending": cards})
}

func (a *api) review(w http.ResponseWriter, r *http.Request) {
	var in ReviewInput
	if err := decode(r, &in); err != nil {
		writeErr(w, err)
		return
	}
	out, err := a.s.Review(r.Context(), in)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
