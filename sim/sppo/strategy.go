package sppo

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

var _ strategy.Strategy = Strategy{}

// Simulate runs s, which Validate has accepted (package function Simulate).
func (Strategy) Simulate(s scenario.Scenario) (*timeline.Timeline, error) { return Simulate(s) }
