//go:build !js

package dataparallel

import (
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Caption is the caption of a data-parallel demo: the iteration, then the
// gradient all-reduce's simulated time beside its α–β formula and its bus
// bandwidth (nccltest.CollectiveParts).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	parts := []strategy.Part{strategy.Figure("iteration {}", strategy.Nanos(sum.Iteration))}
	if len(sum.Collectives) == 0 {
		if s.NumGPUs() == 1 {
			parts = append(parts, strategy.Figure("one GPU: its all-reduce has nothing to exchange and costs {}", strategy.Nanos(0)))
		}
		return parts, nil
	}
	more, err := nccltest.CollectiveParts(s, sum.Collectives[0]) // the gradients' all-reduce
	return append(parts, more...), err
}
