//go:build !js

package training

import "paraplay/sim/workload"

// stageParams is the parameters one GPU of model stage k holds: its
// shard of the stage's layers, and of the embedding or the head on the
// first and last stages.
func (c *costs) stageParams(k int) float64 {
	key := paramsKey{c.stage(k), c.par.TP, c.par.EP, c.par.ETP}
	if key.etp == 0 { // parallel.Plan.ExpertTP
		key.etp = key.tp
	}
	if k < len(c.params) && c.params[k].ok && c.params[k].key == key {
		return c.params[k].n
	}
	n := workload.StageParamsOf(c.model, key.st, key.tp, key.ep, key.etp)
	if len(c.params) != len(c.layers) {
		c.params = make([]paramsMemo, len(c.layers))
	}
	c.params[k] = paramsMemo{key, n, true}
	return n
}

// stageSplit is the layers of each model stage, with a memo of the
// parameters a GPU of each holds: the planner's estimator asks for them
// several times a plan (memory, gradient buckets, the optimizer step),
// and each answer counts the whole model again.
type stageSplit struct {
	layers []int
	params []paramsMemo
}

// paramsMemo is stageParams(k) for the stage and split in key; a memo
// whose key no longer matches (a stage re-split, another plan) is
// recomputed.
type paramsMemo struct {
	key paramsKey
	n   float64
	ok  bool
}

// paramsKey is what a stage's parameters per GPU depend on beyond the
// model.
type paramsKey struct {
	st          workload.Stage
	tp, ep, etp int
}
