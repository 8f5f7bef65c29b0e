package rlhf

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

var _ strategy.Strategy = Strategy{}

// Simulate runs s, which Validate has accepted: its rlhf section made a
// Config (FromScenario), whose steps are played analytically (package
// function Simulate; the package's doc says why no events are needed).
func (Strategy) Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	c, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	return Simulate(c, s.Title())
}
