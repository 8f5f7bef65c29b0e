//go:build !js

package swarm

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Caption is the caption of a SWARM demo: the run's length; the measured
// steady rate (Record.Measured) beside the closed form min_s R_s/(F+B)
// for the peers' final placement (within 5%: the pipeline's fill and
// drain and the routing's estimates); and, when peers moved, the closed
// form for the first placement and how many moved; with swarm.skip = k,
// the stages each microbatch computed beside S − k.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r, err := strategy.RecordOf[*Record](tl, Name)
	if err != nil {
		return nil, err
	}
	parts := []strategy.Part{strategy.Figure("simulated run {}", strategy.Nanos(tl.End)),
		strategy.Compare(strategy.Check{Name: "swarm rate", Formula: "X = min_s R_s / (f_s·(F + B))",
			Source: "SWARM's throughput is its slowest stage's (Ryabinin et al. 2023)", Tolerance: 0.05},
			"{} microbatches/s in the steady state; the slowest stage's summed peer speed / (its share of microbatches × (F + B)) = {}", r.Measured, r.Final, strategy.Sig3)}
	if y := SettingsOf(&s); y.Skip > 0 && r.Lost == 0 {
		parts = append(parts, strategy.Compare(strategy.Check{Name: "skipped work", Formula: "stages computed per microbatch = S − k",
			Source: "SkipPipe's partial pipelines (Blagoev, Chen and Ersoy 2025)", Tolerance: 1e-9},
			"each microbatch computes {} stages; S − k = {}", float64(r.Visits)/float64(y.Microbatches), float64(y.Stages-y.Skip), strategy.Sig3))
	}
	if r.Moves > 0 {
		parts = append(parts, strategy.Figure("{} peer(s) moved, raising the closed form from {}", strategy.Whole(r.Moves), strategy.Of(r.Initial, strategy.Sig3)))
	}
	if r.Lost > 0 {
		parts = append(parts, strategy.Figure("{} microbatch(es) sent again after a failure", strategy.Whole(r.Lost)))
	}
	return parts, nil
}
