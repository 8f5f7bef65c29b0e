package training

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

var _ strategy.Strategy = Strategy{}

// Simulate runs s, which Validate has accepted (package function Simulate).
func (Strategy) Simulate(s scenario.Scenario) (*timeline.Timeline, error) { return Simulate(s) }

var _ strategy.Mirroring = Strategy{}

// SimulateMirrored runs s, leaving it mirrored when its replicas cannot
// differ (package function SimulateMirrored).
func (Strategy) SimulateMirrored(s scenario.Scenario) (*timeline.Timeline, error) {
	return SimulateMirrored(s)
}

// MirroredWork is Work for SimulateMirrored: the same counts (the summary
// and the writers list every span), but a mirrored run records 1/dp of
// the spans and memory points (budget.SpanBytes each).
func (st Strategy) MirroredWork(s scenario.Scenario) budget.Work {
	if imperfect(s) { // never mirrored
		return st.Work(s)
	}
	w, mirror, err := iterationWorkOf(s)
	if err != nil {
		return budget.Work{Refused: err}
	}
	if mirror {
		w.Memory.N -= budget.SpanBytes * w.Spans.N * (1 - 1/float64(s.Parallel.DP))
	}
	return w
}
