//go:build !js

package paramserver

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of a parameter-server demo: the run's length,
// its throughput in worker iterations per second and the version lag, and
// where a closed form prices the same thing, the closed form beside the
// simulated figure:
//
//   - BSP on one server: the per-iteration time max_i((i+1)·T + c_i) + T,
//     T = α + S/B one model on the wire, c_i worker i's compute (the
//     server sends the model to the workers in turn, the slowest push
//     ends the round; TestBSPClosedForm derives it);
//   - ASP: the throughput Σ_i 1/(c_i + 2T), every worker cycling on its
//     own, measured while every worker is still running;
//
// Jitter and compression change the compute and the bytes the closed
// forms assume, so with either the caption keeps to simulated figures.
// Slim-DP adds its bytes beside their closed forms (slimParts).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	a := sum.Async
	parts := []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration)),
		strategy.Figure("{} iterations, {} per second", strategy.Whole(a.Iterations), strategy.Value{V: a.Throughput, Unit: strategy.Count})}
	exact := s.Compute.Jitter == 0 && !s.Compression.Enabled()
	lag := strategy.Figure("version lag mean {}, max {}", strategy.Value{V: a.MeanLag, Unit: strategy.Sig2}, strategy.Whole(a.MaxLag))
	switch s.Sync.Mode {
	case scenario.SyncSSP:
		lag.Text += fmt.Sprintf(" (bound s = %d)", s.Sync.Staleness)
	case scenario.SyncDSSP:
		lag.Text += fmt.Sprintf(" (bound from %d to %d)", s.Sync.Staleness, s.Sync.Staleness+s.Sync.StalenessRange)
	}
	parts = append(parts, lag)
	if s.Compression.Method == scenario.CompressSlimDP {
		parts = append(parts, slimParts(s, tl)...)
	}
	if !exact {
		return parts, nil
	}
	T := s.Link.Latency.Seconds() + float64(s.Collective.Size)/float64(serverBandwidth(s))
	switch s.Sync.Mode {
	case scenario.SyncBSP:
		if s.Sync.Servers == 1 && s.Link.Bandwidth == serverBandwidth(s) {
			var worst float64
			for i := 0; i < s.NumGPUs(); i++ {
				worst = max(worst, float64(i+1)*T+computeOf(s, i))
			}
			sim := units.Time(int64(sum.Iteration) / int64(s.Iterations))
			parts = append(parts, strategy.Compare(strategy.Check{Name: "BSP iteration", Formula: "max((i+1)T + c_i) + T",
				Source: "the server sends the model to the workers in turn; the slowest push ends the round", Tolerance: 1e-6},
				"BSP iteration: simulated {}; closed form max((i+1)T + c_i) + T = {}", float64(sim), float64(units.Round(worst+T)), strategy.Nanoseconds))
		}
	case scenario.SyncASP:
		var want float64
		for i := 0; i < s.NumGPUs(); i++ {
			want += 1 / (computeOf(s, i) + 2*T)
		}
		parts = append(parts, strategy.Compare(strategy.Check{Name: "ASP throughput", Formula: "Σ 1/(c_i + 2T)",
			Source: "every worker cycles on its own", Tolerance: 0.05},
			"throughput while all run: simulated {}/s; Σ 1/(c_i + 2T) = {}/s", windowThroughput(tl.Async, s.Iterations), want, strategy.Count))
	}
	return parts, nil
}

// computeOf is worker i's compute per iteration, c_i = (F + B)/speed_i.
func computeOf(s scenario.Scenario, i int) float64 {
	return (s.Compute.Forward + s.Compute.Backward).Seconds() / s.Sync.Speed(i)
}

func serverBandwidth(s scenario.Scenario) units.Bandwidth {
	if s.Sync.ServerBandwidth > 0 {
		return s.Sync.ServerBandwidth
	}
	return s.Link.Bandwidth
}

// windowThroughput is the iterations finished per second until the first
// worker finishes its last, while every worker still runs.
func windowThroughput(a *timeline.Async, iters int) float64 {
	var window units.Time = -1
	for _, it := range a.Iterations {
		if it.Index == iters-1 && (window < 0 || it.End < window) {
			window = it.End
		}
	}
	done := 0
	for _, it := range a.Iterations {
		if it.End <= window {
			done++
		}
	}
	if window <= 0 {
		return 0
	}
	return float64(done) / window.Seconds()
}

// slimParts is a Slim-DP run's bytes: what worker 0 pushes and pulls in
// its first iteration, beside the closed forms of a subset of r of the
// S/4 fp32 parameters, 2rS with a 4-byte index beside each value pushed
// and rS pulled.
func slimParts(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	var push, pull float64
	for i := range tl.Transfers.Len() {
		switch x := tl.Transfers.At(i); {
		case x.Step != 0:
		case x.Phase == collective.PhasePush.String() && x.Src == 0:
			push += float64(x.Bytes)
		case x.Phase == collective.PhasePull.String() && x.Dst == 0:
			pull += float64(x.Bytes)
		}
	}
	rS := s.Compression.Ratio * float64(s.Collective.Size)
	src := "Sun et al. 2017 (Slim-DP): a subset of the parameters, fp32 values, a 4-byte index beside each one pushed"
	return []strategy.Part{
		strategy.Compare(strategy.Check{Name: "Slim-DP push bytes", Formula: "k·(4 + 4) = 2rS", Source: src, Tolerance: 1e-6},
			"Slim-DP push per worker: simulated {}; 2rS = {}", push, 2*rS, strategy.Size),
		strategy.Compare(strategy.Check{Name: "Slim-DP pull bytes", Formula: "k·4 = rS", Source: src, Tolerance: 1e-6},
			"pull: simulated {}; rS = {}", pull, rS, strategy.Size),
	}
}
