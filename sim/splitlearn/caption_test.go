//go:build !js

package splitlearn

import (
	"testing"

	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

// TestCaptionChecks: every split demo's caption sets the simulated round
// beside its closed form, and for split learning the largest compute
// node's memory beside its formula; the two agree. The multi-hop caption
// also gives what one hop would need, and the one-hop VGG-19 run on an 80
// GB A100 is out of memory.
func TestCaptionChecks(t *testing.T) {
	const base = "strategy: split-learning\niterations: 2\n"
	for _, tt := range []struct {
		name, yaml string
		memory     bool
		text       string // a part that must be there, when set
	}{
		{"one hop, slow client", base + "split: {clients: 8, speeds: '1,1,1,1,1,1,1,0.25'}\n", true, ""},
		{"four hops", base + "split: {clients: 16, hops: 4, speed_cv: 0.5}\n", true, " (one hop: {})"},
		{"vgg19 one hop OOM", "strategy: split-learning\nsplit: {model: vgg19, clients: 100, compute_gpu: a100-sxm-80gb}\n", true, ": out of memory"},
		{"fedavg", base + "split: {mode: fedavg, clients: 8, local_steps: 3, speeds: '1,1,1,1,1,1,1,0.25'}\n", false, "(the model)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, _ := strategytest.Caption(t, Strategy{}, tt.yaml)
			strategytest.Checked(t, parts, "round")
			if tt.memory {
				strategytest.Checked(t, parts, "compute node memory")
			}
			if tt.text != "" {
				strategytest.Figure(t, parts, tt.text)
			}
		})
	}
	// The VGG-19 server side for 100 clients' batches: 112.3 GiB.
	parts, _, _ := strategytest.Caption(t, Strategy{}, "strategy: split-learning\nsplit: {model: vgg19, clients: 100, compute_gpu: a100-sxm-80gb}\n")
	if got := strategytest.Checked(t, parts, "compute node memory").Simulated() / float64(units.GiB); got < 112.25 || got >= 112.35 {
		t.Errorf("compute node's peak %.2f GiB, want 112.3", got)
	}
}
