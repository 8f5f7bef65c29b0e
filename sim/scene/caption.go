package scene

import (
	"slices"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// analyticNote says why an analytic run shows no chunks moving.
const analyticNote = "analytic: one α–β span per collective"

// stepCaption names the collective step(s) in flight at t, e.g.
// "ring all-reduce · reduce-scatter, step 3 of 14", for the lowest-numbered
// collective with a transfer in flight; the total is the largest Step of
// that collective's transfers plus one. An analytic run names the
// collective running at t and says that it is one span. It returns "" when
// nothing is in flight.
func stepCaption(tl *timeline.Timeline, t units.Time) string {
	if tl.Fidelity == "analytic" {
		for i := range tl.Collectives {
			if c := &tl.Collectives[i]; c.Start <= t && t < c.End {
				return collectiveName(c) + " · " + analyticNote
			}
		}
		return analyticNote
	}
	which := -1
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if x.Start <= t && t < x.End && x.Collective >= 0 && x.Collective < len(tl.Collectives) && (which < 0 || x.Collective < which) {
			which = x.Collective
		}
	}
	if which < 0 {
		return ""
	}
	lo, hi, total := -1, -1, 0
	var phases []string
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if x.Collective != which {
			continue
		}
		total = max(total, x.Step+1)
		if !(x.Start <= t && t < x.End) {
			continue
		}
		if lo < 0 || x.Step < lo {
			lo = x.Step
		}
		hi = max(hi, x.Step)
		if x.Phase != "" && !slices.Contains(phases, x.Phase) {
			phases = append(phases, x.Phase)
		}
	}
	steps := "step " + itoa(lo+1)
	if hi > lo {
		steps = "steps " + itoa(lo+1) + "–" + itoa(hi+1)
	}
	steps += " of " + itoa(total)
	if len(phases) > 0 {
		steps = strings.Join(phases, " + ") + ", " + steps
	}
	return collectiveName(&tl.Collectives[which]) + " · " + steps
}

// collectiveName is "<algorithm> <name>", e.g. "ring all-reduce".
func collectiveName(c *timeline.Collective) string {
	if c.Algorithm == "" {
		return c.Name
	}
	return c.Algorithm + " " + c.Name
}
