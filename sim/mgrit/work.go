package mgrit

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run on P GPUs of K iterations a solve, two solves: per
// iteration and GPU an F-relaxation, a C-relaxation and an F-relaxation
// again, and a coarse solve, and a last F-relaxation: 2·P·(4K + 1) spans;
// two messages per iteration and GPU, 4·P·K.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	y := SettingsOf(&s)
	P, K := float64(s.NumGPUs()), float64(y.Iterations)
	spans := budget.Count{N: 2 * P * (4*K + 1), Why: "2 solves × GPUs × (4 mgrit.iterations + 1)", Field: "mgrit.iterations", Fix: "lower mgrit.iterations"}
	xfers := budget.Count{N: 4 * P * K, Why: "4 × GPUs × mgrit.iterations", Field: "mgrit.iterations", Fix: "lower mgrit.iterations"}
	return budget.Of(budget.Items{Spans: spans, Transfers: xfers, GPUs: s.NumGPUs()})
}
