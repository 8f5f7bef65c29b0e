//go:build !js

package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// stpMetrics is the caption's comparison of a braided run (schedule stp)
// with the same order unbraided (dualpipev) and with ZB-V: the braiding's
// gain is bounded by the unbraided run's exposed tensor-parallel time
// (stp.go), beside the up to 12% more throughput that Qi et al. (2025)
// report for language models, quoted as their claim.
func stpMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	if s.Parallel.Schedule != "stp" {
		return nil
	}
	var ref [2]timeline.Summary
	for i, name := range []string{"dualpipev", "zb-v"} {
		other := s
		other.Parallel.Schedule = name
		tl, err := Simulate(other)
		if err != nil {
			return nil
		}
		ref[i] = tl.Summarize()
	}
	return []strategy.Part{strategy.Figure("unbraided (dualpipev) {} with {} of exposed TP time, the most braiding can win; ZB-V {}: STP {}× its throughput (the paper reports up to 1.12× on language models)",
		strategy.Nanos(runTime(ref[0])), strategy.Of(ref[0].ExposedBy["tp"]*1e9, strategy.Nanoseconds), strategy.Nanos(runTime(ref[1])),
		strategy.Of(float64(runTime(ref[1]))/float64(runTime(sum)), strategy.Sig3))}
}
