//go:build browser

package browsertest

import (
	"strconv"
	"strings"
	"testing"

	"paraplay/wasm/playground"
)

// TestSplitLearningPresets opens every split-learning preset of the
// playground in one browser, pauses each at the instant the article's
// poster shows, and checks that the run drew what makes it a split run:
// idle clients in their pale green-grey (#dce6d2), idle compute nodes
// dark (#3d4e63), and for federated averaging the purple of whole models
// on the uplinks (#8e44ad). Look at the screenshots:
// paraplay-split-*.png.
func TestSplitLearningPresets(t *testing.T) {
	type want struct {
		at                     float64 // seconds
		client, compute, model int     // at least this many pixels of each colour
	}
	wants := map[string]want{
		playground.SplitOneHopQuery:          {at: 1.2, client: 2000, compute: 300},
		playground.SplitVGGQuery:             {at: 43, client: 2000},
		playground.SplitVGGQuery + "&hops=4": {at: 65.3, client: 2000, compute: 300},
		playground.FedAvgQuery:               {at: 20, model: 100},
	}
	base := serve(t)
	ctx, con := browser(t)
	seen := 0
	for i, p := range playground.Presets {
		if !strings.Contains(p.Query, "strategy=split-learning") {
			continue
		}
		w, ok := wants[p.Query]
		if !ok {
			t.Errorf("preset %q: no expectation in this test", p.Label)
			continue
		}
		seen++
		open(t, ctx, base, "play.html?"+p.Query+"&autoplay=0")
		if st := state(t, ctx); st.Error != "" {
			t.Fatalf("preset %q failed to load: %v", p.Label, st)
		}
		at := w.at * 1e9
		pauseAt(t, ctx, at, 1e6)
		img := screenshot(t, ctx, "paraplay-split-"+strconv.Itoa(i)+".png")
		assertDrawn(t, img, 30)
		for _, c := range []struct {
			what    string
			r, g, b int
			min     int
		}{{"idle-client green-grey", 0xdc, 0xe6, 0xd2, w.client}, {"idle compute-node slate", 0x3d, 0x4e, 0x63, w.compute},
			{"model purple", 0x8e, 0x44, 0xad, w.model}} {
			if c.min == 0 {
				continue
			}
			if n := near(img, c.r, c.g, c.b, 6); n < c.min {
				t.Errorf("preset %q at %gs: %d pixels of the %s, want ≥ %d", p.Label, w.at, n, c.what, c.min)
			}
		}
	}
	if seen != len(wants) {
		t.Errorf("%d split-learning presets, want %d", seen, len(wants))
	}
	noConsoleErrors(t, con)
}
