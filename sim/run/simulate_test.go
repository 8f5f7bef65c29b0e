package run

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

func TestSimulateRejectsInvalid(t *testing.T) {
	s := scenario.Default()
	s.GPUs = 0
	if _, err := Simulate(s); err == nil {
		t.Error("Simulate(gpus=0) = nil error")
	}
	s = scenario.Default()
	s.Strategy, s.GPUs = "collective", 1 // a lone collective needs two ranks
	if _, err := Simulate(s); err == nil || !strings.Contains(err.Error(), "gpus: is 1; allowed 2..64") {
		t.Errorf("Simulate(a collective on 1 GPU) = %v, want the gpus field's 2..64", err)
	}
}
