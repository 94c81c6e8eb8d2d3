package serve

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
)

// The viewer's page carries no secret: any local process can fetch it.
// A browser logs in through the one-time link `cairn serve` prints
// (/?login=<code>), or /?login=<API token> for more browsers; it gets an
// HttpOnly, SameSite=Strict session cookie and is redirected to /. Writes
// made with the cookie must also carry X-Cairn-Request, a header no other
// site can add without a CORS preflight, which the server refuses.

const (
	sessionCookie = "cairn_session"
	requestHeader = "X-Cairn-Request"
)

type sessions struct {
	mu   sync.Mutex
	code string // the one-time login code; "" once used
	live map[string]bool
}

// NewLoginCode returns a random one-time login code for HTTPOptions.
func NewLoginCode() string { return randomHex(24) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// login trades a one-time code or the API token for a session cookie.
func (a *api) login(w http.ResponseWriter, r *http.Request) {
	given := r.URL.Query().Get("login")
	a.sess.mu.Lock()
	ok := tokenOK(given, a.sess.code) || tokenOK(given, a.o.Token)
	if tokenOK(given, a.sess.code) {
		a.sess.code = "" // one time
	}
	var id string
	if ok {
		id = randomHex(32)
		if a.sess.live == nil {
			a.sess.live = map[string]bool{}
		}
		a.sess.live[id] = true
	}
	a.sess.mu.Unlock()
	if !ok {
		writeError(w, http.StatusUnauthorized, "unauthorized", "this login link is used up or wrong: restart `cairn serve` for a new one, or open /?login=<token> with the token from `cairn serve --print-token`")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// sessionOK reports whether r carries a live session cookie and, for a
// state-changing request, the request header.
func (a *api) sessionOK(r *http.Request, state bool) bool {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return false
	}
	if state && r.Header.Get(requestHeader) == "" {
		return false
	}
	a.sess.mu.Lock()
	defer a.sess.mu.Unlock()
	return a.sess.live[c.Value]
}
