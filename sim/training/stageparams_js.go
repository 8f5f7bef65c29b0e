//go:build js

package training

import "paraplay/sim/workload"

// stageSplit is the layers of each model stage. The browser keeps no memo
// of their parameters (stageparams.go): it saves 1.9 KB of download for
// a tenth of the planner's time.
type stageSplit struct {
	layers []int
}

// stageParams is the parameters one GPU of model stage k holds: its
// shard of the stage's layers, and of the embedding or the head on the
// first and last stages.
func (c *costs) stageParams(k int) float64 {
	return workload.StageParamsOf(c.model, c.stage(k), c.par.TP, c.par.EP, c.par.Plan().ExpertTP())
}
