//go:build !js

package plan

import (
	"fmt"
	"testing"
)

// TestLosses: the losing plans by reason, commonest first, ties by name,
// the best left out.
func TestLosses(t *testing.T) {
	var plans []*Plan
	for _, r := range []string{"oom", "tp", "oom", "bubble", "tp", "oom", "bubble"} {
		plans = append(plans, &Plan{Status: Simulated, Reason: r})
	}
	plans = append(plans, &Plan{Status: Best})
	if got, want := fmt.Sprint(Losses(plans)), "[{oom 3} {bubble 2} {tp 2}]"; got != want {
		t.Errorf("Losses = %s; want %s", got, want)
	}
}
