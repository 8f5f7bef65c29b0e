//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSiteOneGPUBaseline plays the why-parallelise article's first demo,
// Llama 3 8B on one H100: the one-GPU baseline is a live demo whose
// caption reports its throughput and its GPU out of memory.
func TestSiteOneGPUBaseline(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/why-parallelise.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "demo.js to show the play buttons", `document.querySelectorAll("figure.demo button.play:not([hidden])").length >= 1`)
	caption, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#demo-1 figcaption").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("demo 1 caption: %s", caption)
	for _, want := range []string{"1 GPU", "tokens/s"} {
		if !strings.Contains(caption, want) {
			t.Errorf("demo 1's caption lacks %q: %s", want, caption)
		}
	}
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(`#demo-1`), chromedp.Click(`#demo-1 button.play`)); err != nil {
		t.Fatalf("pressing play on the one-GPU demo: %v", err)
	}
	waitFor(t, ctx, "the one-GPU demo's first frame", `(() => {
		const f = document.querySelector("#demo-1 iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-why-parallelise-one-gpu.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
