package scene_test

import (
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/scene"
)

// TestMinText checks Options.MinText on a run whose strip rows are thin
// (16 GPUs): without it some span labels are smaller than 8.8 px; with it
// none is, the other text is unchanged, and out-of-range values are
// refused by Validate.
func TestMinText(t *testing.T) {
	s, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n" +
		"parallel: {dp: 16, zero: 0, microbatches: 2, micro_batch_size: 1, recompute: selective}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tl := mustSimulate(t, s)
	const floor = 8.8
	smallest := func(dl scene.DrawList) (min float64, n int) {
		min = 1e9
		for _, it := range dl.Items {
			if it.Shape == scene.Text {
				min, n = minOf(min, it.Size), n+1
			}
		}
		return min, n
	}
	t0 := tl.End / 3
	plain := scene.Build(tl, t0, scene.Options{})
	floored := scene.Build(tl, t0, scene.Options{MinText: floor})
	if got, _ := smallest(plain); got >= floor {
		t.Fatalf("without MinText the smallest text is %.2f px; want a case below %.1f", got, floor)
	}
	got, n := smallest(floored)
	if got < floor {
		t.Errorf("MinText %.1f: smallest text %.2f px", floor, got)
	}
	kept := 0
	for _, it := range plain.Items {
		if it.Shape == scene.Text && it.Size >= floor {
			kept++
		}
	}
	if n != kept {
		t.Errorf("MinText %.1f kept %d text items, want the %d at or above it", floor, n, kept)
	}
	for _, bad := range []float64{-1, scene.MaxMinText + 1} {
		if (scene.Options{MinText: bad}).Validate() == nil {
			t.Errorf("Validate accepted MinText %v", bad)
		}
	}
}

func minOf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}
