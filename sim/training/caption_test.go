//go:build !js

package training

import (
	"math"
	"testing"

	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

const pipelineYAML = `gpus: 4
cluster: {network: ideal}
model:
  synthetic: {forward: 1ms, backward_input: 1500us, backward_weight: 700us}
parallel: {pp: 4, microbatches: 8, `

// TestCaptionBubble checks the simulated bubble of each schedule with a
// closed form against it, and pins the textbook cases: 27.3% for GPipe
// and 1F1B at p = 4, m = 8; 15.8% interleaved with v = 2; none with local
// losses, whose iteration is m(T_F+T_B+T_W)+(p−1)T_F.
func TestCaptionBubble(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		want       float64 // the bubble, when the test pins it
	}{
		{"1f1b", pipelineYAML + "schedule: 1f1b}", 3.0 / 11},
		{"gpipe", pipelineYAML + "schedule: gpipe}", 3.0 / 11},
		{"interleaved", pipelineYAML + "schedule: interleaved, virtual_stages: 2}", 1.5 / 9.5},
		{"zb-h1", pipelineYAML + "schedule: zb-h1}", -1},
		{"zb-h2", pipelineYAML + "schedule: zb-h2}", -1},
		{"local-loss", pipelineYAML + "schedule: local-loss}", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, sum := strategytest.Caption(t, Strategy{}, tt.yaml)
			p := strategytest.Checked(t, parts, "pipeline bubble")
			if tt.want >= 0 && math.Abs(p.Expected()-tt.want) > 1e-12 {
				t.Errorf("closed form %.6f, want %.6f", p.Expected(), tt.want)
			}
			if tt.name == "local-loss" {
				it := strategytest.Checked(t, parts, "local-loss iteration")
				// 8·(1 + 1.5 + 0.7) ms + 3·1 ms.
				if want := 28.6 * float64(units.Millisecond); it.Expected() != want || float64(sum.Iteration) != want {
					t.Errorf("iteration %v, closed form %v; want %v", sum.Iteration, it.Expected(), want)
				}
			}
		})
	}
}

// TestCaptionSimulatedOnly checks the schedules without a closed form and
// real models: numbers from the run, no check.
func TestCaptionSimulatedOnly(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, pipelineYAML+"schedule: zb-v}")
	strategytest.Figure(t, parts, "simulated bubble {} (zb-v has no simple closed form)")
	parts, _, _ = strategytest.Caption(t, Strategy{}, "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\nparallel: {dp: 2, tp: 4, pp: 2, microbatches: 8}")
	for _, text := range []string{"{} tokens/s", "MFU {}", "bubble {}", "peak memory per GPU stage 0 {}, stage 1 {}"} {
		strategytest.Figure(t, parts, text)
	}
	parts, _, _ = strategytest.Caption(t, Strategy{}, "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 1, tp: 8, microbatches: 2}\ntraining: {precision: fp8}")
	strategytest.Figure(t, parts, "MFU {} of the bf16 peak (fp8 GEMMs)")
	parts, _, _ = strategytest.Caption(t, Strategy{}, "model: {preset: llama3-70b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8, microbatches: 1}")
	if oom := strategytest.Figure(t, parts, "OOM on {} of {} GPUs"); oom.Values[0].V != 8 || oom.Values[1].V != 8 {
		t.Errorf("OOM on %v of %v GPUs, want 8 of 8", oom.Values[0].V, oom.Values[1].V)
	}
	for _, p := range parts {
		if p.Check != nil {
			t.Errorf("a real model's caption checks %s", p.Check.Name)
		}
	}
}

// TestCaptionLongRun checks a long run's caption: its simulated goodput
// beside Daly's closed form, which over 30 days of ~230 failures agree to
// within a point, and Young's interval from the same MTBF.
func TestCaptionLongRun(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, `model: {preset: llama3-8b}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}
parallel: {dp: 2, tp: 8}
recovery: {checkpoint_interval: 15m, checkpoint_cost: 30s, restart_cost: 10m, heartbeat_timeout: 30s}
failures: {rate_per_node_day: 3.8796, duration: 30d}
`)
	if p := strategytest.Checked(t, parts, "goodput"); math.Abs(p.Simulated()-p.Expected()) > 0.01 {
		t.Errorf("simulated goodput %.4f, Daly %.4f: more than a point apart", p.Simulated(), p.Expected())
	}
	// 2 nodes at 3.8796 failures per node-day: MTBF 3.09 h, as the Llama 3
	// job's; Young's √(2·30 s·3.09 h) = 13.6 min.
	young := strategytest.Figure(t, parts, "MTBF {}; Young √(2·C·MTBF) = {}")
	if mtbf, y := units.Time(young.Values[0].V).Seconds()/3600, units.Time(young.Values[1].V).Seconds()/60; math.Abs(mtbf-3.09) > 0.005 || math.Abs(y-13.6) > 0.05 {
		t.Errorf("MTBF %.3f h, Young %.2f min; want 3.09 h and 13.6 min", mtbf, y)
	}
}

// TestCaptionIterations: a run of variable-length batches says how many
// steps ran, that the naive detector flagged a step and the predictor
// none, and the replica imbalance; the figures come from the run.
func TestCaptionIterations(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, `model: {preset: gpt3-1.3b, seq_len: 2048}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 4}
parallel: {dp: 4, microbatches: 4, micro_batch_size: 2}
data: {seq_dist: lognormal, seq_cv: 1}
iterations: 6`)
	if steps := strategytest.Figure(t, parts, "{} steps"); steps.Values[0].V != 6 {
		t.Errorf("%v steps, want 6", steps.Values[0].V)
	}
	for _, text := range []string{"run {}", "naive detector (1.2× median) flags step 2", "predictor (1.1×) quiet", "replica imbalance up to {}×"} {
		strategytest.Figure(t, parts, text)
	}
}
