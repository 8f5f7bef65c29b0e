package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
)

// Name is the strategy key's value of one collective operation alone, as
// nccl-tests runs it, on a ring of GPUs or on a cluster of presets.
const Name = "collective"

// Strategy is the lone collective as a strategy of the scenario: the
// collective section, and no compute.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares that a lone collective reads no compute and no seed.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Ignores: []string{"compute.forward", "compute.backward", "compute.jitter", "seed"},
		Algorithms: moreAlgorithms}
}

// Check adds to the shared keys' checks where the in-network all-reduces
// (nvls, collnet) and the torus collectives fit.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	checkInNetwork(s, bad)
	CheckTorus(s, bad)
}

// Title is e.g. "ring all-reduce on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("%s %s on %d GPUs", collective.Label(s.Collective.Algorithm), collective.Label(s.Collective.Op), s.NumGPUs())
}

// Describe is the collective's summary (scenario.DescribeCollective).
func (Strategy) Describe(s *scenario.Scenario) string { return s.DescribeCollective() }
