package operators

import (
	"strings"
	"testing"

	"paraplay/sim/workload"
)

// TestRecomputeModules: each module drops exactly the bytes its closed
// form says, keeps them while its layer's backward runs (RecomputeSaved),
// and re-runs exactly its producers' forward FLOPs, on DeepSeek-V3's layer
// (MLA and a mixture of experts, FP8 linears, EP 64) and Llama 3 8B's
// (dense, tp 2 with sequence parallelism).
func TestRecomputeModules(t *testing.T) {
	ds := model(t, "deepseek-v3")
	ll := model(t, "llama3-8b")
	dsCfg := Config{Model: ds, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Causal: true, Precision: FP8,
		Recompute: workload.RecomputeSelective, EP: 64, ETP: 1}
	llCfg := Config{Model: ll, MicroBatch: 2, TP: 2, SequenceParallel: true, CP: 1, Attention: Flash, Causal: true,
		Precision: BF16, Recompute: workload.RecomputeSelective}
	tokens := func(c Config) float64 { return float64(c.MicroBatch * c.Model.SeqLen / c.CP) }
	mla := ds.MLA
	for _, tc := range []struct {
		name    string
		cfg     Config
		mods    Modules
		dropped float64 // bytes the forward no longer keeps
		redone  []string
	}{
		// Q (heads·(nope+rope)), K (the same) and V (heads·v) in 16 bits.
		{"mla_up_proj", dsCfg, MLAUpProj, tokens(dsCfg) * float64(ds.Heads*(2*(mla.NopeHeadDim+mla.RopeHeadDim)+mla.VHeadDim)) * 2,
			[]string{"attn.q_up", "attn.kv_up", "attn.rotary"}},
		// The down projections' FP8 inputs: k copies of each token, ffn wide.
		{"moe_act", dsCfg, MoEAct, tokens(dsCfg) * float64(ds.MoE.TopK*ds.ExpertWidth()) * 1,
			[]string{"moe.experts.swiglu"}},
		// The norms' outputs as their consumers kept them: q_down's FP8
		// input and the router's 16-bit one.
		{"layernorm (MoE)", dsCfg, LayerNorm, tokens(dsCfg) * float64(ds.Hidden) * (1 + 2),
			[]string{"attn.norm", "mlp.norm"}},
		// QKV's and the MLP's inputs, sharded over tp by sequence parallelism.
		{"layernorm (dense)", llCfg, LayerNorm, 2 * tokens(llCfg) / 2 * float64(ll.Hidden) * 2,
			[]string{"attn.norm", "mlp.norm"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := mustLayer(t, tc.cfg).Totals()
			cfg := tc.cfg
			cfg.RecomputeModules = CoreAttn | tc.mods
			l := mustLayer(t, cfg)
			got := l.Totals()
			if d := base.SavedBytes - got.SavedBytes; !near(d, tc.dropped) {
				t.Errorf("dropped %.0f bytes, want %.0f", d, tc.dropped)
			}
			if d := got.RecomputeSaved - base.RecomputeSaved; !near(d, tc.dropped) {
				t.Errorf("re-kept %.0f bytes while the backward runs, want %.0f", d, tc.dropped)
			}
			var want float64
			for _, o := range l.InPhase(Forward) {
				for _, n := range tc.redone {
					if o.Name == n {
						want += o.FLOPs
					}
				}
			}
			if want == 0 {
				t.Fatalf("no forward op named %v", tc.redone)
			}
			if d := got.FLOPs - base.FLOPs; !near(d, want) {
				t.Errorf("re-ran %.4g FLOPs, want %.4g (the forward FLOPs of %v)", d, want, tc.redone)
			}
			if got.ModelFLOPs != base.ModelFLOPs {
				t.Errorf("model FLOPs %.4g, want %.4g: recomputation is not model work", got.ModelFLOPs, base.ModelFLOPs)
			}
		})
	}
}

// TestRecomputeModulesRejected: a module without selective recomputation,
// or on a model without its part, is an error naming the field.
func TestRecomputeModulesRejected(t *testing.T) {
	ll := model(t, "llama3-8b")
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"full", Config{Model: ll, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Precision: BF16, Recompute: workload.RecomputeFull, RecomputeModules: LayerNorm}},
		{"mla on llama", Config{Model: ll, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Precision: BF16, Recompute: workload.RecomputeSelective, RecomputeModules: MLAUpProj}},
		{"moe_act on llama", Config{Model: ll, MicroBatch: 1, TP: 1, CP: 1, Attention: Flash, Precision: BF16, Recompute: workload.RecomputeSelective, RecomputeModules: MoEAct}},
	} {
		if err := tc.cfg.Validate(); err == nil || !strings.Contains(err.Error(), "parallel.recompute_modules") {
			t.Errorf("%s: error %v, want one naming parallel.recompute_modules", tc.name, err)
		}
	}
}

// TestParseModules reads Megatron-Core's names and rejects others.
func TestParseModules(t *testing.T) {
	m, err := ParseModules(" layernorm,mla_up_proj ,moe_act")
	if err != nil || m != LayerNorm|MLAUpProj|MoEAct {
		t.Errorf("ParseModules = %v, %v; want layernorm|mla_up_proj|moe_act", m, err)
	}
	if got := m.String(); got != "moe_act,layernorm,mla_up_proj" {
		t.Errorf("String = %q", got)
	}
	if _, err := ParseModules("mlp"); err == nil || !strings.Contains(err.Error(), "allowed: core_attn") {
		t.Errorf("ParseModules(mlp) error %v, want the allowed names", err)
	}
}
