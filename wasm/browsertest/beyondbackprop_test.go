//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSiteBeyondBackpropArticle reads the beyond-backprop article as a
// newcomer would: its four demos show posters and captions with the
// simulator's numbers (the local-loss pipeline's beside its closed form),
// each is saved as a screenshot, and the local-loss demo plays.
func TestSiteBeyondBackpropArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/beyond-backprop.html")); err != nil {
		t.Fatal(err)
	}
	const want = 4
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
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-backprop-demo%d.png", i+1)), 20)
	}
	if c := captions[1]; !strings.Contains(c, "simulated iteration 27 ms; formula m(T_F+T_B+T_W)+(p−1)T_F = 27 ms") {
		t.Errorf("the local-loss caption lacks its iteration cross-check: %q", c)
	}

	if err := chromedp.Do(ctx, chromedp.Click(`#demo-2 button.play`)); err != nil {
		t.Fatalf("pressing play on demo 2: %v", err)
	}
	waitFor(t, ctx, "demo 2's first frame", `(() => {
		const f = document.querySelector("#demo-2 iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	start, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("#demo-2 iframe").contentWindow.paraplay.simTime`))
	waitFor(t, ctx, "demo 2 to animate", `document.querySelector("#demo-2 iframe").contentWindow.paraplay.simTime !== `+ftoa(start))
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-backprop-demo2-playing.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
