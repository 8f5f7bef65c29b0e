package run

import (
	"paraplay/sim/dataparallel"
	"paraplay/sim/inference"
	"paraplay/sim/localsgd"
	"paraplay/sim/nccltest"
	"paraplay/sim/paramserver"
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
	case scenario.StrategyTraining:
		return training.Simulate(s)
	case scenario.StrategyParameterServer:
		return paramserver.Simulate(s)
	case scenario.StrategyLocalSGD:
		return localsgd.Simulate(s)
	case scenario.StrategySplitLearning:
		c, err := s.SplitConfig()
		if err != nil {
			return nil, err
		}
		return splitlearn.Simulate(c)
	case scenario.StrategyRLHF:
		return simulateRLHF(s)
	case scenario.StrategyInference:
		return inference.Simulate(s)
	case scenario.StrategyCollective:
		return nccltest.Simulate(s)
	}
	return dataparallel.Simulate(s)
}
