//go:build !js

package rlhf

import (
	"testing"

	"paraplay/sim/strategytest"
)

// TestCaptionChecks checks that every placement's caption sets a
// simulated figure beside its closed form, and that the two agree: the
// step's phases added up, or the slower pool's steady rate.
func TestCaptionChecks(t *testing.T) {
	const base = "strategy: rlhf\ngpus: 8\n"
	for _, tt := range []struct{ name, yaml, check string }{
		{"co-located", base + "iterations: 2\nrlhf: {placement: co-located, gen_tp: 2}", "RLHF step"},
		{"interleaved", base + "iterations: 2\nrlhf: {placement: interleaved, gen_gpus: 4, gen_tp: 2, gen_gpu: h100-sxm}", "RLHF step"},
		{"synchronous", base + "iterations: 3\nrlhf: {placement: disaggregated, gen_gpus: 4, staleness: 0}", "RLHF step"},
		{"steady", base + "iterations: 16\nrlhf: {placement: disaggregated, gen_gpus: 4}", "RLHF steady rate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, _ := strategytest.Caption(t, Strategy{}, tt.yaml)
			strategytest.Checked(t, parts, tt.check)
		})
	}
}
