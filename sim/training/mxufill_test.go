//go:build !js

package training

import (
	"math"
	"testing"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
)

// TestMXUFill: fused attention's share of a TPU's systolic array is the
// padding's closed form (d + dv)/(pad(d) + pad(dv)): 128-wide heads fill
// half of TPU v6e's 256 × 256 MXU and all of a 128 × 128 one; MLA's
// 192-wide query-key heads pad to 256 on v5p; a GPU pads nothing. The
// pricer's attention efficiency on v6e is then the FlashAttention fit's
// times that fill.
func TestMXUFill(t *testing.T) {
	for _, c := range []struct {
		gpu   string
		d, dv int
		want  float64
	}{
		{"tpu-v6e", 128, 0, 0.5},
		{"tpu-v6e", 256, 256, 1},
		{"tpu-v5p", 128, 128, 1},
		{"tpu-v5p", 192, 128, 320.0 / 384},
		{"tpu-v5e", 64, 64, 0.5},
		{"h100-sxm", 128, 0, 1},
	} {
		p, err := gemm.Lookup(c.gpu)
		if err != nil {
			t.Fatal(err)
		}
		got := mxuFill(p, operators.Attention{HeadDim: c.d, VHeadDim: c.dv})
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s d=%d dv=%d: fill %v, want %v", c.gpu, c.d, c.dv, got, c.want)
		}
	}
	g, err := hw.LookupGPU("tpu-v6e")
	if err != nil {
		t.Fatal(err)
	}
	pr, ok := opPricer(&costs{pricing: pricing{gpu: g, gemmScale: 1}})
	if !ok {
		t.Fatal("tpu-v6e: no operator pricer")
	}
	a := operators.Attention{Batch: 1, Heads: 32, KVHeads: 8, QueryLen: 8192, KeyLen: 8192, HeadDim: 128, Causal: true}
	op := operators.Op{Name: "attn.core", Kind: operators.KindAttention, DType: operators.BF16, Attention: a, FLOPs: 1e12}
	tm, err := pr.Time(op)
	if err != nil {
		t.Fatal(err)
	}
	gm, _ := gemm.For(g)
	want := 1e12 / (g.PeakFLOPS * operators.FlashEfficiency(a, gm.Ceiling(gemm.BF16)/gm.Peak(gemm.BF16)) * 0.5)
	if got := tm.Seconds() - gm.Launch(); math.Abs(got/want-1) > 1e-3 {
		t.Errorf("tpu-v6e attention: %.6g s, want %.6g (the fit at half the MXU)", got, want)
	}
}
