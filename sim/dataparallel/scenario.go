package dataparallel

import (
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
)

// Name is the strategy key's value of data parallelism, the first lesson:
// every GPU computes forward and backward, then the GPUs all-reduce their
// gradients.
const Name = scenario.DefaultStrategy

// Strategy is data parallelism as a strategy of the scenario: compute and
// the collective section, whose op must be an all-reduce.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the all-reduce data parallelism sums gradients with.
//
// One GPU is a run too: it has nothing to exchange, so its all-reduce is
// free (the baseline the other GPU counts are measured against).
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Op: "all_reduce", MinGPUs: 1}
}

// Check adds the torus collective's checks (collective.axes on the
// slice), as the lone collective's.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	nccltest.CheckTorus(s, bad) // its all-reduce runs on the slice's torus (nccltest.Plan)
}

// Title is e.g. "Data parallelism on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return "Data parallelism on " + scenario.GPUCount(s.NumGPUs())
}

// Describe is the collective's summary (scenario.DescribeCollective).
func (Strategy) Describe(s *scenario.Scenario) string { return s.DescribeCollective() }
