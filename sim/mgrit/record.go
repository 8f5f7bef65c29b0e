//go:build !js

package mgrit

import (
	"fmt"
	"io"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Record is a layer-parallel run's record on the timeline
// (Extra["layer-parallel"]): the package doc's closed forms beside it.
type Record struct {
	// Serial is L·(forward + backward step), one GPU layer after layer.
	Serial units.Time
	// Closed is T_solve at the forward step plus T_solve at the backward
	// step, for GPU 0's block (the largest).
	Closed units.Time
	// BreakEven is P*, the GPUs beyond which the solve beats serial
	// propagation without messages; 0 when it never does (K ≥ m).
	BreakEven float64
	// Limit is m/K, the speed-up as P grows without messages.
	Limit float64
}

// solveTime is T_solve = K·T_iter + (ℓ − c)·t with the package doc's
// T_iter, for a block of l layers and c coarse points on p GPUs.
func solveTime(y Settings, p, l, c int, t, mu units.Time) units.Time {
	coarse := units.Time(p*c) * t
	iter := units.Time(l-c)*t + coarse + units.Time(p-1)*mu
	if y.Relax == "fcf" {
		iter += units.Time(l) * t
	}
	return units.Time(y.Iterations)*iter + units.Time(l-c)*t
}

// breakEven is P* = (K·(2 − 1/m) + 1 − 1/m) / (1 − K/m) (FCF) or
// (K + 1)(1 − 1/m) / (1 − K/m) (F); 0 when K ≥ m.
func breakEven(y Settings) float64 {
	K, m := float64(y.Iterations), float64(y.Coarsen)
	if K >= m {
		return 0
	}
	num := (K + 1) * (1 - 1/m)
	if y.Relax == "fcf" {
		num = K*(2-1/m) + 1 - 1/m
	}
	return num / (1 - K/m)
}

// extra puts the run's record on its timeline.
func (r *run) extra(s *scenario.Scenario) {
	y := r.y
	f, b := s.Compute.Forward, s.Compute.Backward
	mu := s.Link.Latency + s.Link.Bandwidth.TransferTime(y.State)
	l, c := r.layers[0], r.coarse[0]
	rec := &Record{Serial: units.Time(y.Layers) * (f + b),
		Closed:    solveTime(y, r.gpus, l, c, f, mu) + solveTime(y, r.gpus, l, c, b, mu),
		BreakEven: breakEven(y), Limit: float64(y.Coarsen) / float64(y.Iterations)}
	r.g.Timeline().Extra = map[string]timeline.Record{Name: rec}
}

// Check has nothing to hold against the run: the record is closed forms.
func (r *Record) Check(*timeline.Timeline) []error { return nil }

// Report is the record's part of the summary.
func (r *Record) Report(*timeline.Timeline, *timeline.Summary) timeline.Report { return r }

// WriteText prints the multigrid lines of the summary.
func (r *Record) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  mgrit closed form     %v a step (K·T_iter + last F-relaxation, both solves)\n", r.Closed)
	fmt.Fprintf(w, "  mgrit serial          %v (L layer steps forward and backward); breaks even beyond %.3g GPUs, at most %.3g× faster\n", r.Serial, r.BreakEven, r.Limit)
}
