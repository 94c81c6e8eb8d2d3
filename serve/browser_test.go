package serve

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a headless-capable Chromium. Without one the browser test
// skips, unless CAIRN_REQUIRE_BROWSER is set (make test sets it after
// installing Debian's chromium), so CI can never pass it silently.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CAIRN_REQUIRE_BROWSER") != "" {
		t.Fatal("no chromium on PATH and CAIRN_REQUIRE_BROWSER is set")
	}
	t.Skip("no chromium on PATH (apt-get install chromium chromium-driver)")
	return ""
}

// artifacts is where screenshots go: $CAIRN_ARTIFACTS or artifacts/ at the
// repository root.
func artifacts(t *testing.T) string {
	dir := os.Getenv("CAIRN_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	dir = filepath.Join(dir, "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestViewerInBrowser(t *testing.T) {
	exe := chromium(t)
	s := newService(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(s, HTTPOptions{Addr: ln.Addr().String(), Token: testToken, Version: "test", LoginCode: "one-time-code"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 860), chromedp.Flag("headless", "new"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	dir := artifacts(t)
	shot := func(name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			var buf []byte
			if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
		})
	}
	run := func(step string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}

	var text string
	run("load the tree",
		chromedp.Navigate(base+"/?login=one-time-code"), // as cairn serve prints it
		chromedp.WaitVisible(`.item[data-uri="mem://project/decisions/use-bleve"]`),
		chromedp.Text(`#side`, &text),
		shot("1-tree"))
	if !strings.Contains(text, "Never push to main directly") || !strings.Contains(text, "Prefer table-driven tests") {
		t.Fatalf("tree lacks memories:\n%s", text)
	}

	run("search",
		chromedp.KeyEvent("/"),
		chromedp.Poll(`document.activeElement.id === 'q'`, nil),
		chromedp.Clear(`#q`),
		chromedp.SendKeys(`#q`, "flaky port"),
		chromedp.WaitVisible(`.group h3`),
		// Wait for this query's results: under load the "/" that focused
		// the box can be typed into it and searched first.
		chromedp.Poll(`document.querySelector('.group h3').textContent.includes('flaky port')`, nil),
		chromedp.Text(`#side`, &text),
		shot("2-search"))
	if !strings.Contains(text, "Flaky port test") {
		t.Fatalf("search results:\n%s", text)
	}

	run("open a memory from the keyboard",
		chromedp.Navigate(base+"/#/"),
		chromedp.WaitVisible(`.item[data-uri="mem://project/decisions/use-bleve"]`),
		chromedp.Click(`.item[data-uri="mem://project/decisions/use-bleve"]`),
		chromedp.WaitVisible(`#memory-body h2`),
		chromedp.Text(`#main`, &text),
		shot("3-memory"))
	if !strings.Contains(text, "Use bleve for full-text search") || !strings.Contains(text, "SQLite FTS5 needs cgo") || !strings.Contains(text, "sess-b") {
		t.Fatalf("memory view:\n%s", text)
	}

	run("history with a diff",
		chromedp.KeyEvent("h"),
		chromedp.WaitVisible(`#timeline li`),
		chromedp.Click(`#timeline li:first-child .show-diff`),
		chromedp.WaitVisible(`.diff .add`),
		chromedp.Text(`#main`, &text),
		shot("4-history"))
	if !strings.Contains(text, "sess-b") || !strings.Contains(text, "+Bleve is pure Go and embeds in the binary.") {
		t.Fatalf("history view:\n%s", text)
	}

	var raw string
	run("edit and save",
		chromedp.Navigate(base+"/#/m/"+"mem%3A%2F%2Fproject%2Fdecisions%2Fuse-bleve"),
		chromedp.WaitVisible(`#edit-btn`),
		chromedp.Click(`#edit-btn`),
		chromedp.WaitVisible(`#editor`),
		chromedp.Value(`#editor`, &raw))
	edited := strings.Replace(raw, "SQLite FTS5 needs cgo.", "SQLite FTS5 needs cgo; bleve does not.", 1)
	run("save",
		chromedp.SetValue(`#editor`, edited),
		shot("5-edit"),
		chromedp.Click(`#save-btn`),
		chromedp.WaitVisible(`#memory-body h2`),
		chromedp.Poll(`document.querySelector('#memory-body').textContent.includes('bleve does not')`, nil),
		shot("6-saved"))
	m, err := s.Get("mem://project/decisions/use-bleve", 2, false)
	if err != nil || !strings.Contains(m.Memory.Body, "bleve does not") {
		t.Fatalf("the edit did not reach the file: %v %q", err, m.Memory.Body)
	}
	commits, _ := s.Vaults["project"].Log(vaultLog(1))
	if commits[0].Verb != "edit" || !strings.Contains(commits[0].Body, "edited in the viewer") {
		t.Fatalf("the edit was not committed: %+v", commits[0])
	}

	run("a broken edit is refused with the reason",
		chromedp.Click(`#edit-btn`),
		chromedp.WaitVisible(`#editor`),
		chromedp.SetValue(`#editor`, "---\nkind: gossip\ntitle: x\n---\n"),
		chromedp.Click(`#save-btn`),
		chromedp.Poll(`document.querySelector('#edit-error').textContent.includes('unknown kind')`, nil),
		shot("7-invalid-edit"))

	run("the review inbox: keep what capture wrote",
		chromedp.Navigate(base+"/#/inbox"),
		chromedp.WaitVisible(`#inbox-note`),
		chromedp.WaitVisible(`.item[data-uri="mem://project/cases/flaky-port"]`),
		chromedp.Text(`#side`, &text),
		shot("8-inbox"))
	if !strings.Contains(text, "Flaky port test") || strings.Contains(text, "Use bleve") {
		t.Fatalf("inbox holds what capture wrote and nothing else:\n%s", text)
	}
	run("keep it",
		chromedp.Click(`.item[data-uri="mem://project/cases/flaky-port"]`),
		chromedp.WaitVisible(`#keep-btn`),
		chromedp.Text(`#evidence`, &text),
		chromedp.Click(`#keep-btn`),
		chromedp.Poll(`document.querySelector('#inbox-note') && document.querySelector('#inbox-note').textContent.includes('Nothing to review')`, nil),
		shot("9-inbox-empty"))
	if !strings.Contains(text, "cause named") {
		t.Fatalf("the memory under review shows its evidence: %q", text)
	}
	if m, err := s.Get("mem://project/cases/flaky-port", 0, false); err != nil || m.Reviewed.IsZero() {
		t.Fatalf("kept memory is stamped reviewed: %v %+v", err, m)
	}

	run("sessions timeline, dark",
		chromedp.Navigate(base+"/#/sessions"),
		chromedp.WaitVisible(`#sessions .session`),
		chromedp.Click(`#theme`),
		chromedp.Text(`#sessions`, &text),
		shot("10-sessions-dark"))
	if !strings.Contains(text, "sess-a") || !strings.Contains(text, "sess-b") {
		t.Fatalf("sessions view:\n%s", text)
	}
}
