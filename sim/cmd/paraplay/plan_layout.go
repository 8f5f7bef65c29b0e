package main

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
)

// planLayout names a plan's degrees: dp, tp and pp, then cp, ep and etp
// where they split anything; on a TPU slice, its mesh's axes.
func planLayout(q scenario.Parallel) string {
	if m := q.Mesh; m.Set() { // a TPU slice's mesh, its axes innermost last
		var axes []string
		for _, a := range []struct {
			name string
			n    int
		}{{"data", m.Data}, {"fsdp", m.FSDP}, {"seq", m.Seq}, {"model", m.Model}} {
			if a.n > 1 {
				axes = append(axes, fmt.Sprintf("%s%d", a.name, a.n))
			}
		}
		if m.Layout != "" {
			axes = append(axes, "on "+m.Layout) // the torus axes, innermost first
		}
		return "mesh " + strings.Join(axes, " ")
	}
	layout := fmt.Sprintf("dp%d tp%d pp%d", q.DP, q.TP, q.PP)
	if q.CP > 1 {
		layout += fmt.Sprintf(" cp%d", q.CP)
	}
	if q.EP > 1 {
		layout += fmt.Sprintf(" ep%d", q.EP)
	}
	if q.ETP > 0 && q.ETP != q.TP {
		layout += fmt.Sprintf(" etp%d", q.ETP)
	}
	return layout
}
