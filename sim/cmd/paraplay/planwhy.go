//go:build !js

package main

import (
	"fmt"
	"io"

	"paraplay/sim/plan"
)

// writeWhy prints the best plan against the runner-up and the naive
// layouts: a row of parts each (plan.Parts, in seconds per GPU), then a
// sentence per plan.
func writeWhy(w io.Writer, why []plan.Breakdown) {
	if len(why) == 0 {
		return
	}
	var cols []string
	for _, k := range plan.Parts {
		for _, b := range why {
			if b.Seconds[k] > 0 {
				cols = append(cols, k)
				break
			}
		}
	}
	fmt.Fprintf(w, "\nwhy this plan (seconds per GPU; a bound where not simulated):\n%-34s %10s", "", "iteration")
	for _, k := range cols {
		fmt.Fprintf(w, " %9s", k)
	}
	fmt.Fprintf(w, " %9s\n", "headroom")
	for _, b := range why {
		it := "-"
		if b.Fits {
			it = fmt.Sprintf("%.3f", b.Iteration)
			if !b.Simulated {
				it = "≥" + it
			}
		}
		fmt.Fprintf(w, "%-34s %10s", b.Role, it)
		for _, k := range cols {
			v := "-"
			if b.Fits {
				v = fmt.Sprintf("%.3f", b.Seconds[k])
			}
			fmt.Fprintf(w, " %9s", v)
		}
		fmt.Fprintf(w, " %9s\n", fmtGiB(b.Headroom))
	}
	for _, b := range why {
		if b.Role == "best" {
			fmt.Fprintf(w, "best: %s\n", b.Label)
			continue
		}
		fmt.Fprintf(w, "%s (%s): %s\n", b.Role, b.Label, b.Versus)
	}
}

// planWhy is the search's explanation (plan.Result.Why, host-only).
func planWhy(r *plan.Result) []plan.Breakdown { return r.Why() }
