package splitlearn

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

var _ strategy.Strategy = Strategy{}

// Simulate runs s, which Validate has accepted: its split section made a
// Config (FromScenario), played as a task graph (package function Simulate).
func (Strategy) Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	c, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	return Simulate(c)
}
