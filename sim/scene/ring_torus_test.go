package scene

import (
	"math"
	"strings"
	"testing"

	simrun "paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

func runYAML(t *testing.T, yaml string) *timeline.Timeline {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := simrun.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestTorusLayouts: a 2D slice is one plane; a 3D one is its z planes,
// its z links marks (a pair between each two planes and a pair for the
// wraparound); a whole v5p pod is drawn in blocks, with an x and a y mark
// per plane, and at its first collective (the FSDP parameter gather over
// all three axes) every mark is lit in its axis's colour; a ring is no
// torus.
func TestTorusLayouts(t *testing.T) {
	cases := []struct {
		name, yaml string
		dims       [3]int
		block      int
		marks      int
		boxes      int
	}{
		{"v5e 8x4", "strategy: collective\ncluster: {gpu: tpu-v5e, topology: 8x4}\ncollective: {op: all_gather, algorithm: torus, size: 1MiB}\n",
			[3]int{8, 4, 1}, 1, 0, 32},
		{"v5p cube", "strategy: collective\ncluster: {gpu: tpu-v5p, topology: 4x4x4}\ncollective: {op: all_reduce, algorithm: torus, size: 1MiB}\n",
			[3]int{4, 4, 4}, 1, 8, 64},
		{"v5p pod", "strategy: training\nfidelity: analytic\nmodel: {preset: llama3-70b, seq_len: 4096}\ncluster: {gpu: tpu-v5p, topology: 16x20x28}\n" +
			"parallel: {mesh: {fsdp: 8960}, microbatches: 1, micro_batch_size: 1}\ntraining: {efficiency: 0.4}\n",
			[3]int{16, 20, 28}, 4, 2*28 + 2*28, 28 * 4 * 5},
		{"ring", "strategy: collective\ngpus: 8\ncollective: {op: all_reduce, size: 1MiB}\n", [3]int{}, 0, 0, 8},
	}
	for _, c := range cases {
		tl := runYAML(t, c.yaml)
		if got := torusDims(tl); got != c.dims {
			t.Errorf("%s: torusDims = %v, want %v", c.name, got, c.dims)
			continue
		}
		g := layoutRing(tl, 40, 348, 740, 1)
		boxes := 0
		for _, x := range g.cx {
			if !math.IsNaN(x) {
				boxes++
			}
		}
		if g.block != c.block || len(g.marks) != c.marks || boxes != c.boxes {
			t.Errorf("%s: block %d, %d marks, %d boxes; want %d, %d, %d", c.name, g.block, len(g.marks), boxes, c.block, c.marks, c.boxes)
		}
		for i, p := range g.planes {
			if p.x0 < 0 || p.x1 > 740 || p.y0 < 40 || p.y1 > 348 || p.w() <= 0 || p.h() <= 0 {
				t.Errorf("%s: plane %d at %v, outside the band", c.name, i, p)
			}
		}
		if c.name != "v5p pod" {
			continue
		}
		dl := Build(tl, tl.Collectives[0].Start+1, Options{})
		lit := map[Color]int{}
		for _, it := range dl.Items {
			if strings.HasPrefix(it.ID, "torus/mark/") {
				lit[it.Stroke]++
			}
		}
		for k, col := range axisColors {
			if lit[col] == 0 {
				t.Errorf("pod at its first collective: no mark lit in axis %d's colour (%v)", k, lit)
			}
		}
		if len(dl.Items) > 2000 {
			t.Errorf("pod frame: %d items, want a frame the size of a small run's (≤ 2000)", len(dl.Items))
		}
		// On a phone's column the axes' key still fits in the frame.
		compact := Build(tl, tl.Collectives[0].Start+1, Options{Width: CompactWidth, Height: 440, MinText: 12, Compact: true})
		for _, it := range compact.Items {
			if strings.HasPrefix(it.ID, "torus/axis/") && it.X-1.2*textWidth(it.Text, it.Size) < 0 {
				t.Errorf("compact pod frame: key %q runs off the left edge (ends at x = %.0f)", it.Text, it.X)
			}
		}
	}
}
