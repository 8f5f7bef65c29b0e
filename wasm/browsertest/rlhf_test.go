//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"paraplay/wasm/playground"
)

// TestRLHFPresets opens each RLHF preset of the playground in the player,
// pauses inside its third step and saves a screenshot
// (paraplay-rlhf-preset-N.png): the GPU boxes and the strip must show the
// generation teal, and the disaggregated ones the queue meter's slots.
func TestRLHFPresets(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	n := 0
	for _, p := range playground.Presets {
		if !strings.Contains(p.Query, "strategy=rlhf") {
			continue
		}
		n++
		open(t, ctx, base, "play.html?"+p.Query)
		if st := state(t, ctx); st.Error != "" {
			t.Fatalf("%s failed to load: %v", p.Label, st)
		}
		const at = 8e9 // 8 s: generation is under way in every preset
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`paraplay.pause(); paraplay.seek(`+ftoa(at)+`)`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(at)+`) < 1e7 && window.paraplay.state === "paused"`)
		if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		img := screenshot(t, ctx, fmt.Sprintf("paraplay-rlhf-preset-%d.png", n))
		assertDrawn(t, img, 50)
		// The generation teal is #76b7b2.
		if got := near(img, 0x76, 0xb7, 0xb2, 10); got < 2000 {
			t.Errorf("%s: %d pixels of generation teal, want ≥ 2000", p.Label, got)
		}
	}
	if n != 3 {
		t.Errorf("%d RLHF presets, want 3", n)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestSiteRLHFArticle reads the RLHF article: its three demos show
// posters and captions whose simulated figure matches its closed form,
// each is saved as a screenshot, and the disaggregated demo plays.
func TestSiteRLHFArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/rlhf.html")); err != nil {
		t.Fatal(err)
	}
	const want = 3
	waitFor(t, ctx, "the posters", fmt.Sprintf(`[...document.querySelectorAll("figure.demo img.poster")].filter(i => i.complete && i.naturalWidth > 0).length >= %d`, want))
	captions, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.demo figcaption")].map(c => c.innerText)`))
	if len(captions) != want {
		t.Fatalf("%d demo captions, want %d", len(captions), want)
	}
	for i, c := range captions {
		t.Logf("demo %d: %s", i+1, strings.Join(strings.Fields(c), " "))
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector("#demo-%d").scrollIntoView({block: "center"}), true)`, i+1))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-rlhf-demo%d.png", i+1)), 20)
	}
	if c := captions[0]; !strings.Contains(c, "simulated step 3.19 s; reshard + generate + score + train = 3.19 s") {
		t.Errorf("the co-located caption lacks its sum-of-phases check: %q", c)
	}
	if c := captions[1]; !strings.Contains(c, "simulated steady rate") || !strings.Contains(c, "min(1/T_gen, 1/T_train)") {
		t.Errorf("the disaggregated caption lacks its steady-rate check: %q", c)
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
	assertDrawn(t, screenshot(t, ctx, "paraplay-rlhf-demo2-playing.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
