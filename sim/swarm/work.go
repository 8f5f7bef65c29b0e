package swarm

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run of M microbatches through S stages of n peers with f
// faults: a forward and a backward span per stage and microbatch, 2·S·M,
// each fail_stop sending again at most the 4n microbatches in flight;
// and a state per fault and per move, each move raising the sorted stage
// rates, at most n·S of them between faults.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	y := SettingsOf(&s)
	n, f := s.NumGPUs(), len(s.Faults)
	m := float64(y.Microbatches + 4*n*f)
	spans := budget.Count{N: 2*float64(y.Stages)*m + float64(f+n*y.Stages*(f+1)), Why: fmt.Sprintf("2 × %d swarm.stages × %g microbatches (with those sent again), and the moves", y.Stages, m),
		Field: "swarm.microbatches", Fix: "lower swarm.microbatches or swarm.stages"}
	return budget.Of(budget.Items{Spans: spans, GPUs: n})
}
