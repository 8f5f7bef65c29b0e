//go:build !js

package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// moeMetrics is a mixture of experts' part of the caption: the exposed
// expert-parallel time (all-to-alls and waits for the group's slowest
// GPU), the busiest GPU's load over the mean, and under a capacity factor
// the dropped share of the token copies, beside its expectation
// E[(X − cf)⁺] (moe.DroppedLognormal) when the router is lognormal and
// nothing else reshapes the loads.
func moeMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	r, ok := sum.Extra["moe"].(MoE)
	if !ok || r.EP <= 1 {
		return nil
	}
	parts := []strategy.Part{
		strategy.Figure("exposed EP {}", strategy.Nanos(units.Time(r.ExposedEP*1e9+0.5))),
		strategy.Figure("busiest GPU's tokens {}× the mean", strategy.Value{V: r.GPUMaxMean, Unit: strategy.Fixed2}),
	}
	rt := s.Model.MoE.Routing
	if rt.CapacityFactor <= 0 || r.Copies <= 0 {
		return parts
	}
	got := r.Dropped / r.Copies
	if rt.Skew != moe.Lognormal || rt.HotExperts > 0 || len(rt.Histogram) > 0 || rt.Redundant > 0 || groupLimited(s) {
		return append(parts, strategy.Figure("dropped {} of the token copies", strategy.Value{V: got, Unit: strategy.Percent}))
	}
	want := moe.DroppedLognormal(rt.CV, rt.CapacityFactor)
	// The expectation is over experts and seeds; one run's layers come
	// within two points of it (TestMoECapacityDrops).
	tol := 1.0
	if want > 0 {
		tol = 0.02 / want
	}
	return append(parts, strategy.Compare(strategy.Check{Name: "dropped token copies", Formula: "E[(X − cf)⁺]",
		Source: "lognormal router weights of mean 1 (moe.DroppedLognormal)", Tolerance: tol},
		"dropped {} of the token copies; expectation E[(X − cf)⁺] = {}", got, want, strategy.Percent))
}

// groupLimited reports whether the scenario's model routes each token to
// a few groups of experts (which reshapes the loads).
func groupLimited(s scenario.Scenario) bool {
	m, err := s.Model.Resolve()
	return err != nil || m.MoE.Router == workload.RouterGroupLimited
}
