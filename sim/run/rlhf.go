package run

import (
	"paraplay/sim/rlhf"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// simulateRLHF runs an rlhf scenario: the scenario's rlhf section becomes
// an rlhf.Config (presets looked up, prices and the sync port defaulted)
// and package rlhf plays its steps analytically.
func simulateRLHF(s scenario.Scenario) (*timeline.Timeline, error) {
	c, err := rlhf.FromScenario(&s)
	if err != nil {
		return nil, err
	}
	return rlhf.Simulate(c, s.Title())
}
