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

// TestServingPresets opens each serving preset of the playground in the
// player, pauses at an instant where its lesson shows and saves a
// screenshot: paraplay-serving-*.png. The pipeline presets must show the
// imbalance tint (#f9c98f) in the strip, the KV and SiDP presets the KV
// cache's red (#e15759) in the memory bars.
func TestServingPresets(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, tc := range []struct {
		name, query string
		at          float64 // ns
		r, g, b     int     // a colour the frame must hold
		min         int
	}{
		{"pipeline", playground.ServingPipelineQuery, 40e6, 0xf9, 0xc9, 0x8f, 200},
		{"sipipe", playground.ServingSiPipeQuery, 40e6, 0xf9, 0xc9, 0x8f, 50},
		{"kv", playground.ServingKVQuery, 4e9, 0xe1, 0x57, 0x59, 400},
		{"sidp", playground.ServingSiDPQuery, 16.5e9, 0xe1, 0x57, 0x59, 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, ctx, base, "play.html?"+tc.query)
			if st := state(t, ctx); st.Error != "" {
				t.Fatalf("the %s preset failed to load: %v", tc.name, st)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`paraplay.pause(); paraplay.seek(`+ftoa(tc.at)+`)`)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(tc.at)+`) < 1e6 && window.paraplay.state === "paused"`)
			if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			img := screenshot(t, ctx, "paraplay-serving-"+tc.name+".png")
			assertDrawn(t, img, 30)
			if n := near(img, tc.r, tc.g, tc.b, 10); n < tc.min {
				t.Errorf("%d pixels of #%02x%02x%02x, want ≥ %d", n, tc.r, tc.g, tc.b, tc.min)
			}
		})
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestSiteInferenceArticle reads the serving article: its four demos show
// posters and captions in which each measured figure sits beside its
// closed form, each is saved as a screenshot, and the pipeline demo plays.
func TestSiteInferenceArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/inference.html")); err != nil {
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
		if !strings.Contains(c, "KV cache simulated 128 KiB") && !strings.Contains(c, "KV cache simulated 32 KiB") {
			t.Errorf("demo %d's caption lacks the KV cross-check: %q", i+1, c)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector("#demo-%d").scrollIntoView({block: "center"}), true)`, i+1))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-inference-demo%d.png", i+1)), 20)
	}
	if c := captions[3]; !strings.Contains(c, "weights freed on GPU 0: simulated 8.9 GiB; (32 − 8 − 2)·layer = 8.9 GiB") {
		t.Errorf("the SiDP caption lacks its freed-memory cross-check: %q", c)
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
	assertDrawn(t, screenshot(t, ctx, "paraplay-inference-demo2-playing.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
