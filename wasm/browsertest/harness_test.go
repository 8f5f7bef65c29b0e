//go:build browser

package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"paraplay/site"
)

// loadTimeout bounds waiting for the app: a cold 15 MB wasm compile in
// software-rendered headless Chromium takes seconds, not minutes.
const loadTimeout = 60 * time.Second

// siteDir returns the built site named by PARAPLAY_SITE. A relative path is
// taken from the module root, where build.sh runs. A missing site is a
// failure, not a skip: build.sh test always builds it first.
func siteDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PARAPLAY_SITE")
	if dir == "" {
		t.Fatal("PARAPLAY_SITE is not set; run ./build.sh test, or build the site and set PARAPLAY_SITE=site/public")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(moduleRoot(t), dir)
	}
	for _, f := range []string{"play.html", "paraplay.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("the built site %s lacks %s: %v", dir, f, err)
		}
	}
	return dir
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", dir)
		}
	}
}

// serve serves the built site on 127.0.0.1 the way ./build.sh serve does.
func serve(t *testing.T) string {
	srv := httptest.NewServer(site.FileServer(siteDir(t)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// console collects the page's console errors and uncaught exceptions.
type console struct {
	mu     sync.Mutex
	errors []string
}

func (c *console) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = "console.error: " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = "exception: " + d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
	default:
		return
	}
	c.mu.Lock()
	c.errors = append(c.errors, msg)
	c.mu.Unlock()
}

func (c *console) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.errors...)
}

// browser starts headless Chromium with the flags that give it software
// WebGL2 (ARCHITECTURE.md, "Browser tests") and a fresh
// profile (plus any extra flags a test needs), and returns a tab context
// with console errors collected.
func browser(t *testing.T, extra ...chromedp.ExecAllocatorOption) (context.Context, *console) {
	t.Helper()
	exe := "/usr/bin/chromium"
	if c := os.Getenv("CHROMIUM"); c != "" { // build.sh passes its choice
		exe = c
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	con := &console{}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(con.listen))
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first Run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx, con
}

// appState mirrors window.paraplay.
type appState struct {
	Frames  int     `json:"frames"`
	SimTime float64 `json:"simTime"`
	End     float64 `json:"end"`
	Speed   float64 `json:"speed"`
	State   string  `json:"state"`
	Error   string  `json:"error"`
}

func (s appState) String() string {
	return fmt.Sprintf("frames=%d simTime=%.0fns end=%.0fns speed=%v state=%q error=%q",
		s.Frames, s.SimTime, s.End, s.Speed, s.State, s.Error)
}

func state(t *testing.T, ctx context.Context) appState {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[appState](`window.paraplay`))
	if err != nil {
		t.Fatalf("reading window.paraplay: %v", err)
	}
	return s
}

// waitFor polls a JavaScript predicate until it is truthy or loadTimeout
// passes, and fails the test with the app's state if it never holds.
func waitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(loadTimeout)))
	if err != nil {
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.paraplay || null)`))
		t.Fatalf("waiting for %s (%s): %v; window.paraplay = %s", what, predicate, err, st)
	}
}

// open navigates to path and waits for the app's first frame, returning the
// time from navigation start to that frame as the page measured it.
func open(t *testing.T, ctx context.Context, base, path string) time.Duration {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+path)); err != nil {
		t.Fatalf("navigating to %s: %v", path, err)
	}
	waitFor(t, ctx, "the first frame", `window.paraplay && window.paraplay.frames > 0`)
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.now()`))
	if err != nil {
		t.Fatal(err)
	}
	// play.js builds the form after the first frame; tests use it next.
	waitFor(t, ctx, "the page wired to the app", `!document.getElementById("controls") || document.documentElement.dataset.app === "started"`)
	return time.Duration(ms * float64(time.Millisecond))
}

// press holds a key for a few ticks and releases it. Ebitengine samples the
// keyboard once per tick, so a key released within the same tick as it was
// pressed can go unseen.
func press(t *testing.T, ctx context.Context, key string) {
	t.Helper()
	var events []*input.DispatchKeyEventParams
	for _, r := range key {
		events = append(events, kb.Encode(r)...)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, ev := range events {
			if ev.Type == input.DispatchKeyEventTypeKeyUp {
				time.Sleep(100 * time.Millisecond)
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, *ev); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("pressing %q: %v", key, err)
	}
}

// screenshot captures the viewport, saves it as os.TempDir()/name and
// returns it decoded.
func screenshot(t *testing.T, ctx context.Context, name string) image.Image {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(os.TempDir(), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot saved to %s", path)
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("decoding screenshot: %v", err)
	}
	return img
}

// colours counts the distinct colours of img and the share of its most
// common one: a blank canvas has one colour covering everything.
func colours(img image.Image) (distinct int, topShare float64) {
	counts := map[[3]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[[3]uint32{r >> 8, g >> 8, bl >> 8}]++
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return len(counts), float64(top) / float64(b.Dx()*b.Dy())
}

// assertDrawn fails when the screenshot looks blank.
func assertDrawn(t *testing.T, img image.Image, minColours int) {
	t.Helper()
	n, share := colours(img)
	t.Logf("screenshot: %d distinct colours, most common covers %.1f%%", n, 100*share)
	if n < minColours || share > 0.97 {
		t.Errorf("screenshot looks blank: %d distinct colours (want ≥ %d), most common covers %.1f%% (want ≤ 97%%)", n, minColours, 100*share)
	}
}

func ftoa(f float64) string { return fmt.Sprintf("%.0f", f) }
