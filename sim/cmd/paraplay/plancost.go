package main

import (
	"fmt"
	"io"

	"paraplay/sim/cost"
	"paraplay/sim/plan"
)

// planTokens is the token count the planner prices: --tokens, or a million.
func planTokens(tokens float64) float64 {
	if tokens > 0 {
		return tokens
	}
	return 1e6
}

// writeBestPlan prints the best plan as a scenario query and what
// training --tokens (a million by default) costs on it.
func writeBestPlan(w io.Writer, r *plan.Result) {
	if len(r.Plans) == 0 || r.Plans[0].Status != plan.Best {
		return
	}
	q := r.Plans[0].Scenario
	q.Fidelity = "auto"
	fmt.Fprintf(w, "best plan as a scenario: %s\n", q.Query().Encode())
	if e, ok := r.Plans[0].Cost(planTokens(r.Config.Training.Tokens)); ok {
		rate := fmt.Sprintf("$%.2f/GPU-hour", e.GPUHour)
		if e.Assumed {
			rate += " (assumed rate)"
		}
		fmt.Fprintf(w, "best plan's cost for %s tokens: %s, %s GPU-hours, $%s at %s, %sWh\n", cost.FormatTokens(e.Tokens), fmtDays(e.Days),
			cost.Short(e.GPUHours), cost.Short(e.CostUSD), rate, cost.Short(e.EnergyKWh*1e3))
	}
}

// fmtDays writes a wall time in days, or in hours under a day.
func fmtDays(d float64) string {
	if d >= 1 {
		return fmt.Sprintf("%.1f days", d)
	}
	return fmt.Sprintf("%.3g hours", 24*d)
}
