package training

import (
	"math"
	"os"
	"strings"
	"testing"

	"paraplay/sim/operators"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// dsv3Modules is DeepSeek-V3's pre-training layout (the validation row
// deepseek-v3-2048-h800) cut to 4 data-parallel replicas, with recompute
// settings in %s.
const dsv3Modules = `name: DeepSeek-V3 recompute modules
model: {preset: deepseek-v3, mtp: 1, moe: {all_to_all: hierarchical, dispatch_precision: fp8}}
cluster: {gpu: h800, nodes: 8, gpus_per_node: 8}
parallel: {dp: 4, tp: 1, pp: 16, ep: 4, zero: 1, schedule: dualpipev, microbatches: 32, micro_batch_size: 1, order: "tp,cp,dp,pp", %s}
training: {precision: fp8}
fidelity: analytic
`

// TestRecomputeModulesShrinkDeepSeekV3: DeepSeek's recomputation (RMSNorm,
// MLA's up-projections, the SwiGLU output; DeepSeek-AI 2024 §3.2.3 and §3.3.3)
// scales the activations of every GPU that holds only MoE layers by the
// layer's saved bytes with and without it (package operators' lists), and
// costs time, not model FLOPs.
func TestRecomputeModulesShrinkDeepSeekV3(t *testing.T) {
	run := func(settings string) timeline.Summary {
		s, err := scenario.Parse([]byte(strings.Replace(dsv3Modules, "%s", settings, 1)))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		return tl.Summarize()
	}
	m, err := workload.LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	saved := func(mods operators.Modules) float64 {
		l, err := operators.Layer(operators.Config{Model: m, MicroBatch: 1, TP: 1, CP: 1, Attention: operators.Flash, Causal: true,
			Precision: operators.FP8, Recompute: workload.RecomputeSelective, RecomputeModules: mods, EP: 4, ETP: 1})
		if err != nil {
			t.Fatal(err)
		}
		return l.Totals().Saved()
	}
	want := saved(operators.CoreAttn|operators.LayerNorm|operators.MLAUpProj|operators.MoEAct) / saved(0)
	s0 := run("recompute: selective")
	s1 := run(`recompute: selective, recompute_modules: "core_attn,layernorm,mla_up_proj,moe_act"`)
	// Order tp,cp,dp,pp: GPU g is on pipeline device g/4; under DualPipeV
	// devices 0 and 1 hold the embedding, the head and the dense layers.
	for g := 8; g < len(s0.GPUs); g++ {
		a0, a1 := float64(s0.GPUs[g].Memory["activations"]), float64(s1.GPUs[g].Memory["activations"])
		if got := a1 / a0; math.Abs(got-want) > 1e-6 {
			t.Fatalf("GPU %d: activations %.2f → %.2f GiB, ratio %.6f; want the layer's %.6f", g, a0/(1<<30), a1/(1<<30), got, want)
		}
	}
	if !(s1.GPUs[0].Compute > s0.GPUs[0].Compute) || !(s1.MFU == s0.MFU || s1.MFU < s0.MFU) {
		t.Errorf("GPU 0 computes %v → %v, MFU %.4f → %.4f; want the re-run kernels to cost time and no MFU", s0.GPUs[0].Compute, s1.GPUs[0].Compute, s0.MFU, s1.MFU)
	}
	if os.Getenv("PARAPLAY_VERBOSE") != "" {
		t.Logf("saved per layer ×%.3f; GPU 8 peak %.1f → %.1f GiB", want, float64(s0.GPUs[8].PeakMemory)/(1<<30), float64(s1.GPUs[8].PeakMemory)/(1<<30))
	}
}

// TestRecomputeModulesRefused names parallel.recompute_modules for an
// unknown module, a policy other than selective, a model without the
// module's part and the fixed-efficiency cost model.
func TestRecomputeModulesRefused(t *testing.T) {
	llama := `name: x
model: {preset: llama3-8b}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}
parallel: {dp: 8, %s}
training: {%s}
`
	for _, tc := range []struct{ parallel, training string }{
		{`recompute: selective, recompute_modules: "mlp"`, ""},
		{`recompute: full, recompute_modules: "layernorm"`, ""},
		{`recompute: selective, recompute_modules: "mla_up_proj"`, ""},
		{`recompute: selective, recompute_modules: "moe_act"`, ""},
		{`recompute: selective, recompute_modules: "layernorm"`, "efficiency: 0.5"},
	} {
		y := strings.Replace(strings.Replace(llama, "%s", tc.parallel, 1), "%s", tc.training, 1)
		_, err := scenario.Parse([]byte(y))
		if err == nil || !strings.Contains(err.Error(), "parallel.recompute_modules") {
			t.Errorf("%s / %s: error %v, want one naming parallel.recompute_modules", tc.parallel, tc.training, err)
		}
	}
}
