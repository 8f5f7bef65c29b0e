//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"

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
		pauseAt(t, ctx, at, 1e7)
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
	noConsoleErrors(t, con)
}

// TestSiteRLHFArticle reads the RLHF article: its five demos show
// posters and captions whose simulated figure matches its closed form,
// each is saved as a screenshot, and the interleaved and disaggregated
// demos play, and the deployment the budget search chose (AReaL-Hex) plays
// with its caption beside the best single-type pools.
func TestSiteRLHFArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "rlhf.html", 5, "rlhf")
	if c := captions[0]; !strings.Contains(c, "simulated step 3.19 s; reshard + generate + score + train = 3.19 s") {
		t.Errorf("the co-located caption lacks its sum-of-phases check: %q", c)
	}
	if c := captions[1]; !strings.Contains(c, "simulated step 3.53 s; reshard + generate + max(ref, reward + critic) + max(actor, critic train) = 3.53 s") {
		t.Errorf("the interleaved caption lacks its closed form: %q", c)
	}
	if c := captions[2]; !strings.Contains(c, "simulated steady rate") || !strings.Contains(c, "min(1/T_gen, 1/T_train)") {
		t.Errorf("the disaggregated caption lacks its steady-rate check: %q", c)
	}
	if c := captions[4]; !strings.Contains(c, "best pools of one type") || !strings.Contains(c, "simulated steady rate") {
		t.Errorf("the budget search's caption lacks its comparison: %q", c)
	}
	playDemo(t, ctx, 2, "rlhf")
	playDemo(t, ctx, 3, "rlhf")
	playDemo(t, ctx, 5, "rlhf")
	noConsoleErrors(t, con)
}
