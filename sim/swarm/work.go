package swarm

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run of M microbatches through S stages of n peers with f
// faults: a forward and a backward span per stage and microbatch, 2·S·M,
// and each fail_stop sends again at most the 2n microbatches in flight.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	y := SettingsOf(&s)
	n := s.NumGPUs()
	m := float64(y.Microbatches + 2*n*len(s.Faults))
	spans := budget.Count{N: 2 * float64(y.Stages) * m, Why: fmt.Sprintf("2 × %d swarm.stages × %g microbatches (with those sent again)", y.Stages, m),
		Field: "swarm.microbatches", Fix: "lower swarm.microbatches or swarm.stages"}
	return budget.Of(budget.Items{Spans: spans, GPUs: n})
}
