package run

import (
	"paraplay/sim/dataparallel"
	"paraplay/sim/inference"
	"paraplay/sim/localsgd"
	"paraplay/sim/nccltest"
	"paraplay/sim/paramserver"
	"paraplay/sim/rlhf"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/timeline"
	"paraplay/sim/training"
)

// Simulate runs the scenario and returns its timeline. The scenario is
// validated first; the result passes timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Strategy {
	case training.Name:
		return training.Simulate(s)
	case paramserver.Name:
		return paramserver.Simulate(s)
	case localsgd.Name:
		return localsgd.Simulate(s)
	case splitlearn.Name:
		c, err := splitlearn.FromScenario(&s)
		if err != nil {
			return nil, err
		}
		return splitlearn.Simulate(c)
	case rlhf.Name:
		return simulateRLHF(s)
	case inference.Name:
		return inference.Simulate(s)
	case nccltest.Name:
		return nccltest.Simulate(s)
	}
	return dataparallel.Simulate(s)
}
