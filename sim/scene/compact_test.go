package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/scene"
)

// TestCompact lays a run of each kind of picture out for a phone's column
// (Options.Compact at scene.CompactWidth): no text is smaller than
// MinText, no text is anchored off the canvas, a training run's panel is
// left out, and the legend keeps every entry the 960-px frame shows
// (wrapped, not dropped). ring4 and llama3-8b-2x8 stay as golden SVGs.
func TestCompact(t *testing.T) {
	const w, h, floor = scene.CompactWidth, 440, 12
	for _, c := range []struct {
		file   string
		golden string
	}{
		{"ring4.yaml", "compact_ring4.svg"},
		{"llama3-8b-2x8.yaml", "compact_llama3_8b_2x8.svg"},
		{"faults-restart.yaml", ""},
		{"rlhf-async.yaml", ""},
		{"ps-ssp.yaml", ""},
		{"split-2hop.yaml", ""},
		{"inference-pp4.yaml", ""},
		{"tree-vs-ring-16.yaml", ""},
	} {
		tl := simulate(t, c.file, "")
		t0 := at(tl, 0.45)
		dl := scene.Build(tl, t0, scene.Options{Width: w, Height: h, MinText: floor, Compact: true})
		legend := map[string]bool{}
		for _, it := range dl.Items {
			if strings.HasPrefix(it.ID, "legend/") && it.Shape == scene.Text {
				legend[it.ID] = true
			}
			if strings.HasPrefix(it.ID, "mem/") || strings.HasPrefix(it.ID, "metrics/") || strings.HasPrefix(it.ID, "detector/") {
				t.Errorf("%s: compact frame draws %s of the training panel", c.file, it.ID)
			}
			if it.Shape != scene.Text {
				continue
			}
			if it.Size < floor {
				t.Errorf("%s: %s is %.2f px, want ≥ %d", c.file, it.ID, it.Size, floor)
			}
			if it.X < 0 || it.X > w || it.Y < 0 || it.Y > h {
				t.Errorf("%s: %s is anchored at (%.1f, %.1f), off the %d×%d canvas", c.file, it.ID, it.X, it.Y, w, h)
			}
		}
		for _, it := range scene.Build(tl, t0, scene.Options{}).Items {
			if strings.HasPrefix(it.ID, "legend/") && strings.HasSuffix(it.ID, "/label") && !strings.HasPrefix(it.ID, "legend/load/") && !legend[it.ID] {
				t.Errorf("%s: the compact legend lost %s", c.file, it.ID)
			}
		}
		if c.golden != "" {
			checkGoldenSVG(t, c.golden, dl)
		}
	}
}

// TestCompactWidths: a compact frame scales with its width (a 2× screen
// draws the same layout twice as large), so its smallest text is MinText
// or the layout's own, whichever is larger.
func TestCompactWidths(t *testing.T) {
	tl := simulate(t, "llama3-8b-2x8.yaml", "")
	for _, c := range []struct{ w, h, minText float64 }{
		{scene.CompactWidth, 440, 12}, {2 * scene.CompactWidth, 880, 24}, {300, 388, 11},
	} {
		dl := scene.Build(tl, at(tl, 0.5), scene.Options{Width: c.w, Height: c.h, MinText: c.minText, Compact: true})
		smallest := 1e9
		for _, it := range dl.Items {
			if it.Shape == scene.Text {
				smallest = minOf(smallest, it.Size)
			}
		}
		if smallest < c.minText {
			t.Errorf("%v×%v with MinText %v: smallest text %.2f px", c.w, c.h, c.minText, smallest)
		}
	}
}
