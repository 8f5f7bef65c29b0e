package localsgd

import (
	"fmt"

	"paraplay/sim/scenario"
)

// Name is the strategy key's value of local SGD: workers take sync.period
// local steps, then all-reduce (average) the model; with sync.layers > 1
// the layer groups are averaged one by one across the period (DreamDDP).
const Name = "local-sgd"

// Strategy is local SGD as a strategy of the scenario: it reads the sync,
// compression and straggler sections.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the shared sections local SGD reads; it averages the
// model with an all-reduce.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Uses: []string{"sync", "compression.ratio", "compression.time_per_mib", "straggler"}, Op: "all_reduce"}
}

// Check checks the sync section, sync.period included.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	s.CheckSync(bad, nil, true)
}

// Title is e.g. "Local SGD (H = 4) on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("Local SGD (H = %d) on %d GPUs", s.Sync.Period, s.NumGPUs())
}

// Describe is e.g. "8 workers, local SGD averaging every 4 steps, 16
// iterations of a 256MiB model".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := s.Sync
	d := fmt.Sprintf("%d workers, local SGD averaging every %d steps", s.NumGPUs(), y.Period)
	if y.Layers > 1 {
		d += fmt.Sprintf(" in %d layer groups", y.Layers)
	}
	return d + s.DescribeIterations()
}
