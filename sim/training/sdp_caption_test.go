//go:build !js

package training

import (
	"strings"
	"testing"

	"paraplay/sim/strategytest"
)

// TestSDPCaption checks the demos' captions: the model states and the
// gradient bytes of a worker beside their formulas, for both maskings
// and both levels.
func TestSDPCaption(t *testing.T) {
	for _, sdp := range []string{"fraction: 0.5", "fraction: 0.5, masking: forward", "fraction: 0.5, level: neuron",
		"fraction: 0.25, level: neuron, masking: forward, assignment: disjoint", "fraction: 0.75, assignment: cyclic"} {
		parts, _, _ := strategytest.Caption(t, Strategy{}, sdpYAML(4, sdp, ""))
		strategytest.Checked(t, parts, "subnetwork model states")
		if !strings.Contains(sdp, "0.25") {
			strategytest.Checked(t, parts, "subnetwork gradient bytes")
		}
	}
}
