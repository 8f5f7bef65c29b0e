package opgraph

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

var _ strategy.Strategy = Strategy{}

// Simulate runs s, which Validate has accepted: its graph section made a
// graph and a run (FromScenario), played on s's server.
func (Strategy) Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	g, r, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	s.Name = s.Title()
	return simulate(g, r, s)
}
