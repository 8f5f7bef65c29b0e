//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSiteInternetArticle reads the internet-training article as a
// newcomer would: every demo shows its poster and a caption with the
// simulator's numbers, each figure is saved as a screenshot for a person
// to look at, and the compressed local-SGD demo plays. The references page
// lists the off-topic surveyed papers apart, with their reasons.
func TestSiteInternetArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/internet-training.html")); err != nil {
		t.Fatal(err)
	}
	const want = 7
	waitFor(t, ctx, "the posters", fmt.Sprintf(`[...document.querySelectorAll("figure.demo img.poster")].filter(i => i.complete && i.naturalWidth > 0).length >= %d`, want))
	captions, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.demo figcaption")].map(c => c.innerText)`))
	if len(captions) != want {
		t.Fatalf("%d demo captions, want %d", len(captions), want)
	}
	for i, c := range captions {
		t.Logf("demo %d: %s", i+1, strings.Join(strings.Fields(c), " "))
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector("#demo-%d").scrollIntoView({block: "center"}), true)`, i+1))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-internet-demo%d.png", i+1)), 20)
	}

	if err := chromedp.Do(ctx, chromedp.Click(`#demo-4 button.play`)); err != nil {
		t.Fatalf("pressing play on demo 4: %v", err)
	}
	waitFor(t, ctx, "demo 4's first frame", `(() => {
		const f = document.querySelector("#demo-4 iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	start, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("#demo-4 iframe").contentWindow.paraplay.simTime`))
	waitFor(t, ctx, "demo 4 to animate", `document.querySelector("#demo-4 iframe").contentWindow.paraplay.simTime !== `+ftoa(start))
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-internet-demo4-playing.png"), 50)

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/references.html#not-covered")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the off-topic list", `document.querySelectorAll("#not-covered + p + ol li").length === 2`)
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#not-covered + p + ol").innerText`))
	if strings.Count(text, "Not covered:") != 2 || !strings.Contains(text, "Cimple") || !strings.Contains(text, "Resistive") {
		t.Errorf("references.html's off-topic list: %q", text)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-references-not-covered.png"), 20)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
