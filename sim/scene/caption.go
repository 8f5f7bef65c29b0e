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
	return stepCaptionOf(tl, t, inFlight(tl, t), collectiveSteps(tl))
}

// collectiveSteps is, by collective, the number of steps its transfers
// take (the highest Step plus one).
func collectiveSteps(tl *timeline.Timeline) []int {
	steps := make([]int, len(tl.Collectives))
	for i := range tl.Transfers.Len() {
		if x := tl.Transfers.At(i); x.Collective >= 0 && x.Collective < len(steps) {
			steps[x.Collective] = max(steps[x.Collective], x.Step+1)
		}
	}
	return steps
}

// stepCaptionOf is stepCaption given the transfers in flight at t and
// collectiveSteps.
func stepCaptionOf(tl *timeline.Timeline, t units.Time, live []int32, stepsOf []int) string {
	if tl.Fidelity == "analytic" {
		for i := range tl.Collectives {
			if c := &tl.Collectives[i]; c.Start <= t && t < c.End {
				if note := inNetworkNote(c); note != "" {
					return collectiveName(c) + " · " + note
				}
				return collectiveName(c) + " · " + analyticNote
			}
		}
		return analyticNote
	}
	which := -1
	for _, i := range live {
		x := tl.Transfers.At(int(i))
		if x.Collective >= 0 && x.Collective < len(tl.Collectives) && (which < 0 || x.Collective < which) {
			which = x.Collective
		}
	}
	if which < 0 {
		return ""
	}
	lo, hi, total := -1, -1, stepsOf[which]
	var phases []string
	for _, i := range live {
		x := tl.Transfers.At(int(i))
		if x.Collective != which {
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

// collectiveName is "<algorithm> <name>", e.g. "ring all-reduce", and
// the channels when there are several ("ring all-reduce on 8 channels").
func collectiveName(c *timeline.Collective) string {
	if c.Algorithm == "" {
		return c.Name.Label()
	}
	if c.Channels > 1 {
		return c.Algorithm + " " + c.Name.Label() + " on " + itoa(c.Channels) + " channels"
	}
	return c.Algorithm + " " + c.Name.Label()
}
