package operators

import (
	"testing"

	"paraplay/sim/workload"
)

func moeConfig(t *testing.T, name string, tp, ep, etp int) Config {
	return Config{Model: model(t, name), MicroBatch: 1, TP: tp, SequenceParallel: tp > 1, CP: 1, Attention: Flash,
		Precision: BF16, Recompute: workload.RecomputeNone, EP: ep, ETP: etp}
}

// TestMoELayerFLOPs: an MoE layer's op list (not causal, as the closed
// form counts every score) does workload.LayerFLOPs' model FLOPs on every
// split of experts (ep), of each expert (etp) and of heads (tp), with MLA
// (DeepSeek-V3), head_dim wider than hidden/heads (Qwen3, gpt-oss) and
// biases; and a dense first layer does the dense closed form.
func TestMoELayerFLOPs(t *testing.T) {
	for _, tc := range []struct {
		model       string
		tp, ep, etp int
		dense       bool
	}{
		{"mixtral-8x7b", 1, 1, 1, false}, {"mixtral-8x7b", 2, 4, 1, false}, {"mixtral-8x7b", 4, 8, 4, false},
		{"deepseek-v3", 1, 64, 1, false}, {"deepseek-v3", 2, 32, 2, false}, {"deepseek-v3", 1, 8, 1, true},
		{"qwen3-235b-a22b", 4, 16, 1, false}, {"gpt-oss-120b", 1, 32, 1, false},
	} {
		c := moeConfig(t, tc.model, tc.tp, tc.ep, tc.etp)
		c.DenseMLP = tc.dense
		l := mustLayer(t, c)
		w := workload.LayerFLOPs(c.Model, 1, tc.tp, 1, workload.RecomputeNone)
		if tc.dense {
			m := c.Model
			m.MoE = workload.MoE{}
			w = workload.LayerFLOPs(m, 1, tc.tp, 1, workload.RecomputeNone)
		}
		if got, want := l.Totals().ModelFLOPs, w.Total().Model(); !near(got, want) {
			t.Errorf("%s tp %d ep %d etp %d dense %v: %.6e model FLOPs, want workload's %.6e (rel %.2e)",
				tc.model, tc.tp, tc.ep, tc.etp, tc.dense, got, want, got/want-1)
		}
	}
}

// TestExpertsSkewed: the local experts' GEMMs follow the rows routed to
// each expert, a grouped GEMM launches once however many experts it
// holds, and Layer's experts are Experts at BalancedRows.
func TestExpertsSkewed(t *testing.T) {
	c := moeConfig(t, "deepseek-v3", 1, 64, 1)
	rows := BalancedRows(c)
	if len(rows) != 4 || rows[0] != 4096*8*64/256 {
		t.Fatalf("balanced rows %v, want 4 experts of %d", rows, 4096*8*64/256)
	}
	bal, err := Experts(c, rows)
	if err != nil {
		t.Fatal(err)
	}
	skew, err := Experts(c, []float64{16384, 8192, 0, 16384})
	if err != nil {
		t.Fatal(err)
	}
	per := 6 * 7168 * 2048.0 * 3 // F, B and W of three h×2048 matrices per row
	if got, want := skew.Totals().ModelFLOPs, per*(16384+8192+16384); !near(got, want) {
		t.Errorf("skewed experts: %.6e FLOPs, want %.6e", got, want)
	}
	// Up and down GEMMs, forward, dgrad and wgrad: 6 kernels, plus the
	// activation and its gradient.
	if got := bal.Totals().Kernels; got != 8 {
		t.Errorf("balanced experts: %d kernels, want 8 (grouped GEMMs launch once)", got)
	}
	layer := mustLayer(t, c)
	var inLayer float64
	for _, op := range layer {
		if len(op.Name) > 12 && op.Name[:12] == "moe.experts." {
			inLayer += op.FLOPs
		}
	}
	if got := bal.Totals().FLOPs; !near(got, inLayer) {
		t.Errorf("Experts(balanced) %.6e FLOPs, the layer's experts %.6e", got, inLayer)
	}
	if skew.Totals().SavedBytes <= bal.Totals().SavedBytes {
		t.Errorf("skewed rows keep %.0f bytes, no more than balanced %.0f", skew.Totals().SavedBytes, bal.Totals().SavedBytes)
	}
}

// TestMLAAttention: MLA's fused kernel runs query-key heads of 192 and
// value heads of 128, and its cache of K and V per token is the heads'
// full keys and values (training rebuilds them from the latent).
func TestMLAAttention(t *testing.T) {
	c := moeConfig(t, "deepseek-v3", 1, 64, 1)
	c.Causal = false
	l := mustLayer(t, c)
	var flash Op
	for _, op := range l {
		if op.Name == "attn.flash" {
			flash = op
		}
	}
	s := 4096.0
	if got, want := flash.FLOPs, 2*128*s*s*(192+128); !near(got, want) {
		t.Errorf("MLA flash forward %.6e FLOPs, want 2·a·s²·(192+128) = %.6e", got, want)
	}
	if got, want := flash.SavedBytes, s*128*(192+192+128)*2; !near(got, want) {
		t.Errorf("MLA flash keeps %.0f bytes, want Q, K and V: %.0f", got, want)
	}
}
