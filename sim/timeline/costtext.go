//go:build !js

package timeline

import (
	"fmt"
	"io"

	"paraplay/sim/cost"
)

// writeCost prints the token budget's days, GPU-hours, dollars, energy and
// emissions.
func (s *Summary) writeCost(w io.Writer) {
	e := s.Estimate
	if e == nil {
		return
	}
	rate := fmt.Sprintf("$%.2f/GPU-hour", e.GPUHour)
	if e.Assumed {
		rate += " (assumed rate)"
	}
	fmt.Fprintf(w, "  %-21s %.1f days, %s GPU-hours, $%s at %s\n", "to train "+cost.FormatTokens(e.Tokens)+" tokens", e.Days,
		cost.Short(e.GPUHours), cost.Short(e.CostUSD), rate)
	fmt.Fprintf(w, "  energy                %sWh (%.0f W per GPU, PUE %g), %s t CO2 at %g kg/kWh\n", cost.Short(e.EnergyKWh*1e3),
		e.PowerPerGPU, e.PUE, cost.Short(e.CO2Kg/1e3), e.GridKgPerKWh)
}
