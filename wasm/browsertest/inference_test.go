//go:build browser

package browsertest

import (
	"strings"
	"testing"

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
		{"sidp", playground.ServingSiDPQuery, 13.5e9, 0xe1, 0x57, 0x59, 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, ctx, base, "play.html?"+tc.query)
			if st := state(t, ctx); st.Error != "" {
				t.Fatalf("the %s preset failed to load: %v", tc.name, st)
			}
			pauseAt(t, ctx, tc.at, 1e6)
			img := screenshot(t, ctx, "paraplay-serving-"+tc.name+".png")
			assertDrawn(t, img, 30)
			if n := near(img, tc.r, tc.g, tc.b, 10); n < tc.min {
				t.Errorf("%d pixels of #%02x%02x%02x, want ≥ %d", n, tc.r, tc.g, tc.b, tc.min)
			}
		})
	}
	noConsoleErrors(t, con)
}

// TestSiteInferenceArticle reads the serving article: its four demos show
// posters and captions in which each measured figure sits beside its
// closed form, each is saved as a screenshot, and the pipeline demo plays.
func TestSiteInferenceArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "inference.html", 4, "inference")
	for i, c := range captions {
		if !strings.Contains(c, "KV cache simulated 128 KiB") && !strings.Contains(c, "KV cache simulated 32 KiB") {
			t.Errorf("demo %d's caption lacks the KV cross-check: %q", i+1, c)
		}
	}
	if c := captions[3]; !strings.Contains(c, "weights freed on GPU 0: simulated 8.9 GiB; (32 − 8 − 2)·layer = 8.9 GiB") {
		t.Errorf("the SiDP caption lacks its freed-memory cross-check: %q", c)
	}
	playDemo(t, ctx, 2, "inference")
	noConsoleErrors(t, con)
}
