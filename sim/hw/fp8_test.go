package hw

import (
	"math"
	"slices"
	"testing"

	"paraplay/sim/units"
)

// TestDatasheetPeaks checks each preset's dense peaks against the
// datasheet figures its Source quotes: vendors print the 2:4 sparse
// rate, which is twice the dense one (the GB200 figures are a 72-GPU
// rack's).
func TestDatasheetPeaks(t *testing.T) {
	tests := []struct {
		gpu                 string
		bf16Sparse, fp8Sprs float64 // TFLOPS as printed, with sparsity
		perBox              float64 // GPUs the printed figure covers
	}{
		{"h100-sxm", 1979, 3958, 1},
		{"h100-pcie", 1513, 3026, 1},
		{"h200", 1979, 3958, 1},
		{"h800", 1979, 3958, 1},
		{"h20", 296, 592, 1},
		{"b200", 36000, 72000, 8},     // HGX B200, 8 GPUs
		{"gb200", 360000, 720000, 72}, // GB200 NVL72, 72 GPUs
		{"mi300x", 2614.9, 5229.8, 1},
		{"mi325x", 2614.9, 5229.8, 1},
	}
	for _, tc := range tests {
		g, err := LookupGPU(tc.gpu)
		if err != nil {
			t.Fatal(err)
		}
		wantBF16 := tc.bf16Sparse / 2 / tc.perBox * 1e12
		wantFP8 := tc.fp8Sprs / 2 / tc.perBox * 1e12
		if !near(g.PeakFLOPS, wantBF16, 1e-3) {
			t.Errorf("%s: bf16 peak %v, datasheet gives %v dense", tc.gpu, g.PeakFLOPS, wantBF16)
		}
		if !near(g.PeakFP8, wantFP8, 1e-3) {
			t.Errorf("%s: FP8 peak %v, datasheet gives %v dense", tc.gpu, g.PeakFP8, wantFP8)
		}
		// Hopper, Blackwell and CDNA 3 all run FP8 at twice their bf16 rate.
		if r := g.PeakFP8 / g.PeakFLOPS; !near(r, 2, 1e-3) {
			t.Errorf("%s: FP8/bf16 = %.4f, want 2", tc.gpu, r)
		}
	}
}

// TestNoFP8Presets: the GPUs before Hopper have no FP8 tensor cores.
func TestNoFP8Presets(t *testing.T) {
	for _, name := range []string{"v100-sxm", "a100-sxm-40gb", "a100-sxm-80gb", "t4", "a10g"} {
		g, _ := LookupGPU(name)
		if g.HasFP8() || g.PeakFP8 != 0 {
			t.Errorf("%s: PeakFP8 = %v, want 0", name, g.PeakFP8)
		}
		if got := g.Precisions(); slices.Contains(got, "fp8") {
			t.Errorf("%s: precisions %v include fp8", name, got)
		}
	}
	h, _ := LookupGPU("h100-sxm")
	if got := h.Precisions(); !slices.Equal(got, []string{"bf16", "fp16", "fp8"}) {
		t.Errorf("h100-sxm precisions = %v", got)
	}
}

// TestNewPresetFigures pins the memory and server figures of the presets
// added with FP8.
func TestNewPresetFigures(t *testing.T) {
	tests := []struct {
		gpu     string
		hbm     units.Bytes
		bw      units.Bandwidth
		link    string
		perNode int
	}{
		{"h800", 80 * units.GiB, 3350 * units.GBps, "nvlink4-h800", 8},
		{"gb200", 186 * units.GiB, 8000 * units.GBps, "nvlink5", 72},
		{"mi325x", 256 * units.GiB, 6000 * units.GBps, "infinity-fabric", 8},
	}
	for _, tc := range tests {
		g, _ := LookupGPU(tc.gpu)
		if g.HBM != tc.hbm || g.HBMBandwidth != tc.bw || g.Link != tc.link || g.GPUsPerNode != tc.perNode {
			t.Errorf("%s: %v, %v, %s, %d per node; want %v, %v, %s, %d", tc.gpu, g.HBM, g.HBMBandwidth, g.Link,
				g.GPUsPerNode, tc.hbm, tc.bw, tc.link, tc.perNode)
		}
	}
}

func TestMixedComputeTime(t *testing.T) {
	h100, _ := LookupGPU("h100-sxm")
	a100, _ := LookupGPU("a100-sxm-80gb")
	tests := []struct {
		gpu       GPU
		bf16, fp8 float64
		eff       float64
		want      units.Time
	}{
		{h100, 989.4e12, 0, 1, units.Second},
		{h100, 0, 1978.9e12, 1, units.Second},
		{h100, 989.4e12, 1978.9e12, 0.5, 4 * units.Second},
		{a100, 312e12, 0, 1, units.Second}, // no FP8 FLOPs: fine without FP8
	}
	for _, tc := range tests {
		if got := tc.gpu.MixedComputeTime(tc.bf16, tc.fp8, tc.eff); got != tc.want {
			t.Errorf("%s.MixedComputeTime(%g, %g, %g) = %v, want %v", tc.gpu.Name, tc.bf16, tc.fp8, tc.eff, got, tc.want)
		}
	}
	for _, tc := range []struct {
		gpu       GPU
		bf16, fp8 float64
	}{{a100, 1, 1}, {h100, 1, -1}, {h100, 1, math.Inf(1)}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s.MixedComputeTime(%g, %g) did not panic", tc.gpu.Name, tc.bf16, tc.fp8)
				}
			}()
			tc.gpu.MixedComputeTime(tc.bf16, tc.fp8, 0.5)
		}()
	}
}
