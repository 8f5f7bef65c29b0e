//go:build browser

package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"paraplay/site"
)

// TestPlaygroundTraceURL opens play.html?trace=URL twice: with two ranks'
// traces on the page's own origin, which it fetches and plays (the same
// run as the host's import; screenshot paraplay-trace-url.png), keeping
// the trace= parameters in its address; and with a URL on another origin,
// which it refuses over the canvas without any request to that origin
// (screenshot paraplay-trace-url-refused.png).
func TestPlaygroundTraceURL(t *testing.T) {
	paths := traceFiles(t)
	want := importHost(t, paths)
	mux := http.NewServeMux()
	dir := t.TempDir()
	var names []string
	for _, p := range paths {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), mustRead(t, p), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, "trace=traces/"+filepath.Base(p))
	}
	mux.Handle("/traces/", http.StripPrefix("/traces/", http.FileServer(http.Dir(dir))))
	mux.Handle("/", site.FileServer(siteDir(t)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write([]byte(`{"traceEvents": []}`))
	}))
	t.Cleanup(other.Close)

	ctx, con := browser(t)
	reqs := &requests{}
	if err := chromedp.Listen(ctx, reqs.listen); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	reqs.record(true)
	open(t, ctx, srv.URL, "play.html?"+strings.Join(names, "&"))
	waitFor(t, ctx, "the run from ?trace=", `document.getElementById("trace-status").textContent.startsWith("Showing") && window.paraplay.end === `+ftoa(float64(want.End)))
	if cur := eval[map[string]any](t, ctx, `paraplay.current()`); cur["ok"] != true || !strings.Contains(cur["describe"].(string), "measured") {
		t.Errorf("current() after ?trace=: %v", cur)
	}
	if addr := eval[string](t, ctx, `location.search`); strings.Count(addr, "trace=") != len(paths) {
		t.Errorf("the address after the import is %q; want it to keep the %d trace= parameters", addr, len(paths))
	}
	eval[bool](t, ctx, `(paraplay.pause(), paraplay.seek(`+ftoa(float64(want.End/3))+`), true)`)
	waitFor(t, ctx, "the seek", `paraplay.state === "paused"`)
	assertDrawn(t, screenshot(t, ctx, "paraplay-trace-url.png"), 40)

	open(t, ctx, srv.URL, "play.html?trace="+other.URL+"/rank0.json")
	waitFor(t, ctx, "the refusal", `paraplay.state === "error"`)
	got := state(t, ctx).Error
	t.Logf("refused: %q", got)
	if !strings.Contains(got, "is on another site") || !strings.Contains(got, "drop it on the page") {
		t.Errorf("the page says %q about a URL on another origin; want it to say it fetches from its own origin only", got)
	}
	screenshot(t, ctx, "paraplay-trace-url-refused.png")
	for _, u := range reqs.record(false) {
		if strings.Contains(u, " "+other.URL) { // "GET http://other/…", not the page whose query names it
			t.Errorf("the page asked the other origin for %s", u)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other origin got %d requests; want none", n)
	}

	open(t, ctx, srv.URL, "play.html?trace=traces/missing.json")
	waitFor(t, ctx, "the missing file's error", `paraplay.state === "error"`)
	if got := state(t, ctx).Error; !strings.Contains(got, "HTTP 404") {
		t.Errorf("a missing trace: %q, want HTTP 404", got)
	}
	noConsoleErrors(t, con)
}
