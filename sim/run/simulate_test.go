package run

import (
	"testing"

	"paraplay/sim/scenario"
)

func TestSimulateRejectsInvalid(t *testing.T) {
	s := scenario.Default()
	s.GPUs = 1
	if _, err := Simulate(s); err == nil {
		t.Error("Simulate(gpus=1) = nil error")
	}
}
