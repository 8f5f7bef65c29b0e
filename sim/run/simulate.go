package run

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Simulate runs the scenario and returns its timeline: it validates s,
// then hands it to its strategy (Lookup). The result passes
// timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	st, ok := Lookup(s.Strategy)
	if !ok { // Validate refuses a strategy no one registered
		return nil, fmt.Errorf("strategy: %q is not registered", s.Strategy)
	}
	return st.Simulate(s)
}
