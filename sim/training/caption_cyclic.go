//go:build !js

package training

import (
	"fmt"
	"slices"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// cyclicMetrics is the caption of a cyclic data-parallel run
// (parallel.cyclic) beside the same run with the replicas in step: the
// stagger, the activations summed over the GPUs with every replica run
// back to back (foldedSum), and the peak load on the network, which the
// relay should cut by the number of replicas (one message in flight
// instead of n at once, while a message takes no longer than the
// stagger).
func cyclicMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) []strategy.Part {
	if !s.Parallel.Cyclic || sum.Step <= 0 {
		return nil
	}
	sync := s
	sync.Parallel.Cyclic = false
	ref, err := Simulate(sync)
	if err != nil {
		return nil
	}
	n := s.Parallel.DP
	bytes := func(m timeline.MemoryPoint) float64 { return float64(m.Bytes) }
	lo, hi, _ := foldedSum(tl, sum.Step, bytes)
	refLo, refHi, _ := foldedSum(ref, ref.End, bytes)
	parts := []strategy.Part{
		strategy.Figure(fmt.Sprintf("replicas start {} apart (a step over dp = %d)", n), strategy.Nanos(sum.Step/units.Time(n))),
		strategy.Figure("activations summed over the GPUs, steps back to back: {} to {} (in step: {} to {})",
			strategy.Of(lo, strategy.GiB), strategy.Of(hi, strategy.GiB), strategy.Of(refLo, strategy.GiB), strategy.Of(refHi, strategy.GiB)),
	}
	if cyc, sync := peakLoad(tl), peakLoad(ref); cyc > 0 && sync > 0 {
		parts = append(parts, strategy.Figure("peak load on the network {} TB/s (in step {} TB/s)", strategy.Of(cyc/1e12, strategy.Sig3), strategy.Of(sync/1e12, strategy.Sig3)),
			strategy.Compare(strategy.Check{Name: "cyclic peak load", Formula: "peak_sync / peak_cyclic = n",
				Source: "Fournier & Oyallon 2024: the gradient messages spread over the step", Tolerance: 0.1},
				fmt.Sprintf("peak load falls {}×; formula n = {} (dp = %d)", n), sync/cyc, float64(n), strategy.Sig3))
	}
	return parts
}

// foldedSum folds every GPU's activation series (value of each point)
// modulo period, as if each replica ran its step back to back, and sums
// them: the least and largest of the sum over the period, and its mean.
func foldedSum(tl *timeline.Timeline, period units.Time, value func(timeline.MemoryPoint) float64) (lo, hi, mean float64) {
	if period <= 0 {
		return 0, 0, 0
	}
	type edge struct {
		at units.Time
		d  float64
	}
	var edges []edge
	add := func(a, b units.Time, v float64) { // [a, b) within one period
		edges = append(edges, edge{a, v}, edge{b, -v})
	}
	for _, m := range tl.Memory {
		for i, p := range m.Activations {
			end := tl.End
			if i+1 < len(m.Activations) {
				end = m.Activations[i+1].At
			}
			v := value(p)
			if v == 0 || end <= p.At {
				continue
			}
			mean += v * float64(end-p.At)
			for a := p.At; a < end; {
				base := a - a%period
				b := min(end, base+period)
				add(a-base, b-base, v)
				a = b
			}
		}
	}
	slices.SortFunc(edges, func(x, y edge) int { return int(x.at - y.at) })
	lo, hi = -1, 0
	cur, at := 0.0, units.Time(0)
	for i := 0; i <= len(edges); i++ {
		next := period
		if i < len(edges) {
			next = edges[i].at
		}
		if next > at { // cur holds on [at, next)
			if lo < 0 || cur < lo {
				lo = cur
			}
			hi = max(hi, cur)
			at = next
		}
		if i < len(edges) {
			cur += edges[i].d
		}
	}
	return max(lo, 0), hi, mean / float64(period)
}

// peakLoad is the most bytes per second the run's messages sent at once,
// over all links.
func peakLoad(tl *timeline.Timeline) float64 {
	type edge struct {
		at units.Time
		d  float64
	}
	var edges []edge
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		for i, r := range x.Rates {
			end := x.End
			if i+1 < len(x.Rates) {
				end = x.Rates[i+1].At
			}
			if end > r.At && r.BytesPerSecond > 0 {
				edges = append(edges, edge{r.At, r.BytesPerSecond}, edge{end, -r.BytesPerSecond})
			}
		}
	}
	slices.SortFunc(edges, func(x, y edge) int {
		if x.at != y.at {
			return int(x.at - y.at)
		}
		return int(x.d - y.d) // ends before starts at one instant
	})
	var cur, peak float64
	for _, e := range edges {
		cur += e.d
		peak = max(peak, cur)
	}
	return peak
}
