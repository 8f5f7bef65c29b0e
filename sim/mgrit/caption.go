//go:build !js

package mgrit

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Caption is the caption of a layer-parallel demo: the step's length
// beside its closed form K·T_iter + (ℓ − c)·t for both solves (exact for
// an even split), the speed-up over serial propagation, and the GPUs
// beyond which the solve breaks even.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r, err := strategy.RecordOf[*Record](tl, Name)
	if err != nil {
		return nil, err
	}
	parts := []strategy.Part{strategy.Compare(strategy.Check{Name: "MGRIT step", Formula: "K·T_iter + (ℓ − c)·t, forward and backward",
		Source: "two-level MGRIT over layers (Günther et al. 2020): parallel relaxation, serial coarse solve", Tolerance: 1e-6},
		"simulated run {} for a step; closed form {}", float64(tl.End), float64(r.Closed), strategy.Nanoseconds),
		strategy.Figure("serial propagation {}: a speed-up of {}×", strategy.Nanos(r.Serial), strategy.Of(float64(r.Serial)/float64(tl.End), strategy.Sig3))}
	if r.BreakEven > 0 {
		parts = append(parts, strategy.Figure("breaks even beyond {} GPUs (no messages); at most {}× as GPUs grow", strategy.Of(r.BreakEven, strategy.Sig3), strategy.Of(r.Limit, strategy.Sig3)))
	} else {
		parts = append(parts, strategy.Figure("never breaks even: K ≥ m"))
	}
	return parts, nil
}
