//go:build !js

package partitioned

import (
	"testing"

	"paraplay/sim/strategytest"
)

// TestCaptionChecksTheSubModelFLOPs: the caption's simulated FLOPs of a
// sub-model step agree with Narayanan et al.'s closed form at width h/k.
func TestCaptionChecksTheSubModelFLOPs(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, gpt)
	strategytest.Checked(t, parts, "sub-model FLOPs")
}
