//go:build !js

package training

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

// haptYAML is Llama 3 8B cut to layers layers on an H100 server and an
// A100 server (inter: the link between them), a two-stage pipeline with
// the stages on the two servers.
func haptYAML(layers int, partition, schedule, inter string) string {
	return haptOn("h100-sxm, a100-sxm-80gb", layers, partition, schedule, inter)
}

// haptOn is haptYAML on the servers' GPUs gpus.
func haptOn(gpus string, layers int, partition, schedule, inter string) string {
	return fmt.Sprintf("model: {preset: llama3-8b, layers: %d, seq_len: 4096}\n"+
		"cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4, inter: %s, node_gpus: [%s]}\n"+
		"parallel: {dp: 4, pp: 2, order: \"tp,cp,dp,pp\", schedule: %s, microbatches: 8, partition: %s, zero: 1, recompute: selective}\n",
		layers, inter, gpus, schedule, partition)
}

// TestOperatorSplit holds the operator-level split's slowest stage to the
// continuous balanced closed form (within a block, the caption's check)
// and to no more than the layer-granular balanced split's.
func TestOperatorSplit(t *testing.T) {
	for _, layers := range []int{8, 10, 16} {
		const gpus = "a100-sxm-80gb, h100-sxm"
		parts, _, op := strategytest.Caption(t, Strategy{}, haptOn(gpus, layers, "operators", "1f1b", "ib-ndr"))
		p := strategytest.Checked(t, parts, "operator-level balanced split")
		_, _, bal := strategytest.Caption(t, Strategy{}, haptOn(gpus, layers, "balanced", "1f1b", "ib-ndr"))
		if op.Iteration > bal.Iteration {
			t.Errorf("%d layers: operator split %v, layer split %v: want ≤", layers, op.Iteration, bal.Iteration)
		}
		t.Logf("%d layers: slowest %.4g T* %.4g (tol %.3g); iteration %v vs balanced %v", layers, p.Simulated(), p.Expected(), p.Check.Tolerance, op.Iteration, bal.Iteration)
	}
}

// TestHeteroOneFOneB: across a 10 Gb/s Ethernet link, where one message
// (8 MiB) takes less than a stage's compute, hetero-1f1b's pipeline phase
// matches 1F1B's makespan with every send hidden (the caption's check),
// holds more microbatches on stage 0, and beats plain 1F1B.
func TestHeteroOneFOneB(t *testing.T) {
	parts, _, het := strategytest.Caption(t, Strategy{}, haptYAML(16, "balanced", "hetero-1f1b", "eth-10g"))
	p := strategytest.Checked(t, parts, "sends hidden under compute")
	ex := strategytest.Figure(t, parts, "extra warm-up")
	if strings.Contains(ex.Text, "per stage 0 /") {
		t.Errorf("no extra warm-up on stage 0: %s", ex.Text)
	}
	_, _, plain := strategytest.Caption(t, Strategy{}, haptYAML(16, "balanced", "1f1b", "eth-10g"))
	if het.Iteration >= plain.Iteration {
		t.Errorf("hetero-1f1b %v, 1f1b %v: want faster", het.Iteration, plain.Iteration)
	}
	t.Logf("%s; pipeline %.4g vs %.4g; iteration %v vs 1f1b %v", ex.Text, p.Simulated(), p.Expected(), het.Iteration, plain.Iteration)
}

// TestHAPTVariants runs both mechanisms over a grid of pipelines, layer
// counts, microbatches, GPU mixes and links: each run either is refused
// with an error naming a field or simulates to a valid timeline.
func TestHAPTVariants(t *testing.T) {
	gpus := []string{"h100-sxm", "a100-sxm-80gb", "h20"}
	n := 0
	for pp := 2; pp <= 4; pp++ {
		for _, layers := range []int{pp, pp + 1, 2*pp + 1, 12} {
			for _, m := range []int{1, 3, 8} {
				for _, inter := range []string{"ib-ndr", "eth-10g", "wan-100m"} {
					n++
					mix := make([]string, pp)
					for i := range mix {
						mix[i] = gpus[(i+n)%len(gpus)]
					}
					yaml := fmt.Sprintf("model: {preset: llama3-8b, layers: %d, seq_len: 512}\n"+
						"cluster: {gpu: h100-sxm, nodes: %d, gpus_per_node: 1, inter: %s, node_gpus: [%s]}\n"+
						"parallel: {pp: %d, schedule: hetero-1f1b, microbatches: %d, partition: operators}\n",
						layers, pp, inter, strings.Join(mix, ", "), pp, m)
					s, err := scenario.Parse([]byte(yaml))
					if err != nil {
						if !strings.Contains(err.Error(), ".") {
							t.Errorf("%s: error without a field: %v", yaml, err)
						}
						continue
					}
					strategytest.Register(Strategy{})
					if _, err := Simulate(s); err != nil {
						t.Errorf("%s: %v", yaml, err)
					}
				}
			}
		}
	}
}
