package run

import (
	"errors"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// simulateTraining runs one training iteration (see training.go's doc).
func simulateTraining(s scenario.Scenario) (*timeline.Timeline, error) {
	return nil, errors.New("strategy training: the training simulator is not built yet")
}
