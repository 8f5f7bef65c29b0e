package fault

import (
	"math"

	"paraplay/sim/units"
)

// Point is one checkpoint interval of a sweep.
type Point struct {
	// Interval is the checkpoint interval τ.
	Interval units.Time `json:"interval_ns"`
	// Goodput is the simulated goodput at τ.
	Goodput float64 `json:"goodput"`
	// Expected is Daly's expected goodput of checkpoint-restart at τ
	// (DalyGoodput), the closed form to compare with.
	Expected float64 `json:"expected_goodput"`
	// Failures is the number of failures of the run.
	Failures int `json:"failures"`
}

// Sweep runs cfg once per checkpoint interval, with the same failures
// (same seed) each time, so the curve's shape is the intervals' doing and
// not the draws'.
func Sweep(cfg Config, intervals []units.Time) ([]Point, error) {
	out := make([]Point, 0, len(intervals))
	for _, iv := range intervals {
		cfg.Recovery.CheckpointInterval = iv
		rep, err := Run(cfg)
		if err != nil {
			return nil, err
		}
		rc := cfg.Recovery
		out = append(out, Point{Interval: iv, Goodput: rep.Goodput, Failures: rep.Failures,
			Expected: DalyGoodput(iv, rc.CheckpointCost, rc.HeartbeatTimeout+rc.RestartCost, rep.MTBF)})
	}
	return out, nil
}

// Intervals returns n intervals spaced geometrically around center, from
// center/8 to center·8 (a quarter octave apart when n = 25).
func Intervals(center units.Time, n int) []units.Time {
	if n < 2 {
		return []units.Time{center}
	}
	out := make([]units.Time, n)
	for i := range out {
		e := -3 + 6*float64(i)/float64(n-1)
		out[i] = max(1, units.Round(center.Seconds()*math.Exp2(e)))
	}
	return out
}

// Best is the point of highest goodput (the first of equals).
func Best(points []Point) Point {
	var best Point
	for i, p := range points {
		if i == 0 || p.Goodput > best.Goodput {
			best = p
		}
	}
	return best
}
