//go:build !js

package training

import (
	"math"
	"testing"

	"paraplay/sim/strategytest"
)

// The caption sets a compressed pipeline message beside its closed form.
func TestCaptionPipelineMessage(t *testing.T) {
	for _, c := range []string{"{rank: 20}", "{activations: 0.25}"} {
		parts, _, _ := strategytest.Caption(t, Strategy{}, "model: {preset: gpt3-1.3b, layers: 8}\ncluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 1, inter: wan-1g}\nparallel: {pp: 4, microbatches: 2}\ncompression: "+c+"\n")
		p := strategytest.Checked(t, parts, "pipeline message")
		if math.Abs(p.Simulated()-p.Expected()) > 1 {
			t.Errorf("%s: message %v, closed form %v", c, p.Simulated(), p.Expected())
		}
	}
}
