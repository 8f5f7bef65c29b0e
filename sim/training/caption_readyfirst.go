//go:build !js

package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// readyFirstMetrics is the caption's comparison of a ready-first run with
// 1F1B under the same draws (the same seed gives the same sequence
// lengths and straggler factors, which are keyed by op, not by order),
// beside the speed-ups RRFP (Liu et al. 2026) reports for its own
// workloads, quoted as its claim.
func readyFirstMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	if s.Parallel.Schedule != "ready-first" {
		return nil
	}
	fixed := s
	fixed.Parallel.Schedule = "1f1b"
	tl, err := Simulate(fixed)
	if err != nil {
		return nil
	}
	ref := tl.Summarize()
	mine, theirs := runTime(sum), runTime(ref)
	if mine <= 0 {
		return nil
	}
	return []strategy.Part{strategy.Figure("1F1B's fixed order on the same draws {}: ready-first {}× as fast (the RRFP paper claims up to 1.77× on language and 2.77× on multimodal workloads of its own)",
		strategy.Nanos(theirs), strategy.Of(float64(theirs)/float64(mine), strategy.Sig3))}
}

// runTime is a run's length: its iteration, or the end of its last one.
func runTime(sum timeline.Summary) units.Time {
	if n := len(sum.Iterations); n > 0 {
		return sum.Iterations[n-1].End
	}
	return sum.Iteration
}
