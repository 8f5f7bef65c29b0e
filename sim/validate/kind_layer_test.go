package validate

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/workload"
)

// layerScenario is Korthikanti et al.'s 22B layer on 8 A100s, with pp and
// the recomputation given.
func layerScenario(pp int, recompute string) string {
	return `name: layer test
model: {preset: megatron-18b, layers: 8, heads: 64, attention: eager}
cluster: {gpu: a100-sxm-80gb, nodes: ` + string(rune('0'+pp)) + `, gpus_per_node: 8}
fidelity: analytic
training: {precision: bf16}
parallel: {dp: 1, tp: 8, pp: ` + string(rune('0'+pp)) + `, microbatches: 2, micro_batch_size: 4, recompute: ` + recompute + `}
`
}

// TestLayerKind: the forward and backward times of one layer add up to
// the combined time, full recomputation adds a forward pass (its compute
// and its all-reduces) to the backward, and bad settings are named.
func TestLayerKind(t *testing.T) {
	get := func(rec, fig string) float64 {
		t.Helper()
		v, err := simulateLayer(map[string]string{"scenario": layerScenario(1, rec), "figure": fig})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	f, b, c := get("none", "forward_ms"), get("none", "backward_ms"), get("none", "combined_ms")
	if math.Abs(f+b-c) > 1e-9 {
		t.Errorf("forward %v + backward %v ms = %v, want combined %v", f, b, f+b, c)
	}
	if bf := get("full", "backward_ms"); math.Abs(bf-(b+f)) > 1e-6*bf {
		t.Errorf("backward with full recomputation %v ms, want backward + forward = %v", bf, b+f)
	}
	for _, bad := range []struct {
		config map[string]string
		want   string
	}{
		{map[string]string{"scenario": layerScenario(1, "none"), "figure": "tflops"}, "config.figure"},
		{map[string]string{"scenario": layerScenario(2, "none"), "figure": "forward_ms"}, "parallel.pp = 2"},
		{map[string]string{"scenario": "model: {preset: nope}", "figure": "forward_ms"}, "config.scenario"},
	} {
		if _, err := simulateLayer(bad.config); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("config %v: error %v, want one naming %q", bad.config, err, bad.want)
		}
	}
}

// TestTrainingIterationFigure: a training row's iteration_s and tflops
// figures describe the same run: TFLOP/s per GPU = equation (3)'s FLOPs /
// (iteration seconds × GPUs).
func TestTrainingIterationFigure(t *testing.T) {
	s := layerScenario(1, "full")
	it, err := simulateTraining(map[string]string{"scenario": s, "figure": "iteration_s"})
	if err != nil {
		t.Fatal(err)
	}
	tf, err := simulateTraining(map[string]string{"scenario": s})
	if err != nil {
		t.Fatal(err)
	}
	want := workload.NarayananRecomputeFLOPs(2*4, 2048, 8, 6144, 51200) / (it * 8) / 1e12
	if math.Abs(tf-want) > 1e-9*want {
		t.Errorf("%v TFLOP/s per GPU, want equation (3) over %v s on 8 GPUs = %v", tf, it, want)
	}
	tok, err := simulateTraining(map[string]string{"scenario": s, "figure": "tokens_per_gpu_s"})
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * 4 * 2048 / (it * 8); math.Abs(tok-want) > 1e-9*want {
		t.Errorf("%v tokens/s per GPU, want 8 sequences of 2,048 tokens over %v s on 8 GPUs = %v", tok, it, want)
	}
	if _, err := simulateTraining(map[string]string{"scenario": s, "figure": "ms"}); err == nil || !strings.Contains(err.Error(), "config.figure") {
		t.Errorf("figure ms: error %v, want one naming config.figure", err)
	}
}
