package operators

import (
	"strings"
	"testing"

	"paraplay/sim/workload"
)

// TestFP8ActivationCache: DeepSeek-V3's low-precision storage (§3.3.3)
// keeps the attention output once at 1.5 bytes an element instead of a
// 16-bit copy plus the projection's FP8 one (3 bytes), and the experts'
// SwiGLU inputs at 1 byte instead of 2; nothing else changes.
func TestFP8ActivationCache(t *testing.T) {
	ds := model(t, "deepseek-v3")
	cfg := Config{Model: ds, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Causal: true, Precision: FP8,
		Recompute: workload.RecomputeNone, EP: 64, ETP: 1}
	base := mustLayer(t, cfg).Totals()
	cfg.FP8Cache = true
	got := mustLayer(t, cfg).Totals()
	tokens := float64(ds.SeqLen)
	o := tokens * float64(ds.Heads*ds.MLA.VHeadDim)
	swigluIn := tokens * float64(ds.MoE.TopK*2*ds.ExpertWidth())
	want := o*(2+1-1.5) + swigluIn*(2-1)
	if d := base.SavedBytes - got.SavedBytes; !near(d, want) {
		t.Errorf("saves %.0f bytes less, want %.0f (O: 3 → 1.5 bytes; SwiGLU inputs: 2 → 1)", d, want)
	}
	if got.FLOPs != base.FLOPs || got.ReadBytes != base.ReadBytes {
		t.Errorf("FLOPs %.4g → %.4g, reads %.4g → %.4g; want them unchanged", base.FLOPs, got.FLOPs, base.ReadBytes, got.ReadBytes)
	}
	cfg.Precision = BF16
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "training.fp8_activation_cache") {
		t.Errorf("bf16 with the cache: error %v, want one naming training.fp8_activation_cache", err)
	}
}
