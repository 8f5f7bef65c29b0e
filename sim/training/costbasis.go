//go:build !js

package training

import (
	"paraplay/sim/cost"
	"paraplay/sim/timeline"
)

// costBasis is what the summary prices the run with (package cost): the
// token budget, the cost settings, and the GPUs' ratings, one for a cluster
// of one GPU type, else one per GPU.
func (tr *iteration) costBasis() *timeline.CostBasis {
	b := &timeline.CostBasis{Tokens: tr.s.Training.Tokens, Settings: CostSettings(&tr.s)}
	gpus := tr.gpuOf
	if !tr.heterogeneous() {
		gpus = gpus[:1]
	}
	for _, g := range gpus {
		b.Ratings = append(b.Ratings, cost.Rating{TDP: g.TDP, Idle: g.IdlePower, Price: g.Price})
	}
	return b
}
