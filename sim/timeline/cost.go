package timeline

import "paraplay/sim/cost"

// CostIteration is the run's iteration as package cost prices it, with
// the scenario's cost settings and token budget; ok is false for a run
// that is not a training run of catalog GPUs. A long run prices its wall
// time with it.
func (s Summary) CostIteration() (it cost.Iteration, set cost.Settings, tokens float64, ok bool) {
	b := s.costBasis
	return b.it, b.set, b.tokens, b.ok
}

// summaryCost is what Summarize found of the run's cost.
type summaryCost struct {
	it     cost.Iteration
	set    cost.Settings
	tokens float64
	ok     bool
}
