//go:build browser

package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"paraplay/site"
)

// wasmFetches counts the page's requests for paraplay.wasm, including those
// of its iframes (each iframe has its own performance timeline).
const wasmFetches = `(() => {
	const count = (w) => w.performance.getEntriesByType("resource").filter(e => e.name.endsWith("/paraplay.wasm")).length;
	let n = count(window);
	for (const f of document.querySelectorAll("iframe")) {
		try { n += f.contentWindow ? count(f.contentWindow) : 0; } catch (e) {}
	}
	return n;
})()`

// TestSiteDemosStartOnRequest opens an article with several demos: before any
// interaction no wasm is fetched and both are posters; pressing play on one
// starts exactly one runtime, which animates, and leaves the other a poster.
func TestSiteDemosStartOnRequest(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/ring-allreduce.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "demo.js to show the play buttons", `document.querySelectorAll("figure.demo button.play:not([hidden])").length >= 2`)
	if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil { // give any eager loader its chance
		t.Fatal(err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](wasmFetches)); n != 0 {
		t.Fatalf("before interaction the page fetched paraplay.wasm %d times, want 0", n)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("iframe[src]").length`)); n != 0 {
		t.Fatalf("before interaction %d iframes have a src, want 0", n)
	}

	if err := chromedp.Do(ctx, chromedp.Click(`#demo-2 button.play`)); err != nil {
		t.Fatalf("pressing play on the second demo: %v", err)
	}
	waitFor(t, ctx, "the second demo's first frame", `(() => {
		const f = document.querySelector("#demo-2 iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	start, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("#demo-2 iframe").contentWindow.paraplay.simTime`))
	waitFor(t, ctx, "the second demo to animate", `document.querySelector("#demo-2 iframe").contentWindow.paraplay.simTime !== `+ftoa(start))
	running, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("iframe[src]").length`))
	fetches, _ := chromedp.Run(ctx, chromedp.Evaluate[int](wasmFetches))
	first, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const fig = document.querySelector("#demo-1");
		const img = fig.querySelector("img.poster");
		return !!img && img.complete && img.naturalWidth > 0 && !fig.querySelector("iframe[src]") && !fig.classList.contains("live");
	})()`))
	t.Logf("after pressing play on demo 2: %d running iframes, %d fetches of paraplay.wasm, demo 1 still a poster: %v", running, fetches, first)
	if running != 1 || fetches != 1 || !first {
		t.Errorf("want exactly one running iframe, one wasm fetch and demo 1 still an SVG poster")
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-site-demo2.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestSiteThemes saves the article's top in the light and the dark theme
// (prefers-color-scheme emulated) and checks that the background differs.
func TestSiteThemes(t *testing.T) {
	base := serve(t)
	ctx, _ := browser(t)
	backgrounds := map[string]string{}
	for _, scheme := range []string{"light", "dark"} {
		err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			})
			return err
		}))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/ring-allreduce.html")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "fonts", `document.fonts.status === "loaded"`)
		bg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		backgrounds[scheme] = bg
		t.Logf("%s: body background %s", scheme, bg)
		assertDrawn(t, screenshot(t, ctx, "paraplay-site-"+scheme+".png"), 20)
	}
	if backgrounds["light"] == backgrounds["dark"] {
		t.Errorf("light and dark themes have the same background %s", backgrounds["light"])
	}
}

// TestSitePrint prints the article to PDF with Chromium's --print-to-pdf and
// rasterises its first pages with pdftoppm for people to look at.
func TestSitePrint(t *testing.T) {
	base := serve(t)
	exe := "/usr/bin/chromium"
	if c := os.Getenv("CHROMIUM"); c != "" {
		exe = c
	}
	pdf := filepath.Join(os.TempDir(), "paraplay-site-print.pdf")
	cmd := exec.Command(exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--no-pdf-header-footer", "--print-to-pdf="+pdf, base+"/ring-allreduce.html")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("print to PDF: %v\n%s", err, out)
	}
	st, err := os.Stat(pdf)
	if err != nil || st.Size() < 10000 {
		t.Fatalf("PDF %s: %v (size %d)", pdf, err, st.Size())
	}
	t.Logf("PDF saved to %s (%d KiB)", pdf, st.Size()/1024)
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Log("pdftoppm not installed (apt-get install poppler-utils): no PNG of the print")
		return
	}
	prefix := filepath.Join(os.TempDir(), "paraplay-site-print")
	if out, err := exec.Command("pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "3", pdf, prefix).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	t.Logf("print pages saved as %s-*.png", prefix)
}

// TestSiteCheck runs the offline and link check over the built site, the
// one build.sh just made (wasm included).
func TestSiteCheck(t *testing.T) {
	if err := site.Check(siteDir(t)); err != nil {
		t.Error(err)
	}
}
