//go:build !js

package cost

import (
	"strings"
	"testing"
)

// TestDefaultsCarrySources: the defaults say where they come from.
func TestDefaultsCarrySources(t *testing.T) {
	if !strings.Contains(PUESource, "Uptime Institute") || !strings.Contains(PUESource, "1.3") {
		t.Errorf("PUESource %q does not cite the survey and its 1.3", PUESource)
	}
	if !strings.Contains(GridSource, "Ember") || !strings.Contains(GridSource, "481") {
		t.Errorf("GridSource %q does not cite Ember's 481 g/kWh", GridSource)
	}
	if DefaultGridKgPerKWh != 0.481 || DefaultPUE != 1.3 {
		t.Errorf("defaults %v kg/kWh, PUE %v; their sources say 0.481 and 1.3", DefaultGridKgPerKWh, DefaultPUE)
	}
}
