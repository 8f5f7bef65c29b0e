//go:build !js

package training

import "paraplay/sim/pipeline"

// heldAtForwards lists, for each device of sch, the activations it holds at
// each forward's start as counts per chunk (an F adds one of its chunk, a
// B gives one back), keeping only the vectors no other vector of the same
// device is at least as large as in every chunk. Held bytes per chunk are
// never negative, so the peak of any plan on this schedule, Σ count ×
// held, is reached at one of the kept vectors: the estimator prices a
// plan's peak from a handful of vectors instead of walking every op
// (peakMemory walks when backward and weight gradients split, heldw.go,
// and in the browser, whose build leaves this file out: peak_js.go).
func heldAtForwards(sch pipeline.Schedule) [][][]float64 {
	out := make([][][]float64, len(sch.Order))
	for d, order := range sch.Order {
		now := make([]float64, sch.Chunks)
		var kept [][]float64
		for i, o := range order {
			switch o.Kind {
			case pipeline.F:
				now[o.Chunk]++
				// A run of forwards only adds: its last holds the most.
				if i+1 == len(order) || order[i+1].Kind != pipeline.F {
					kept = keepPareto(kept, now)
				}
			case pipeline.B:
				now[o.Chunk]--
			}
		}
		out[d] = kept
	}
	return out
}

// keepPareto adds a copy of v to the set unless a member is ≥ v in every
// chunk, and drops the members v is ≥ in every chunk.
func keepPareto(set [][]float64, v []float64) [][]float64 {
	n := 0
	for _, u := range set {
		if atLeast(u, v) {
			return set
		}
		if !atLeast(v, u) {
			set[n] = u
			n++
		}
	}
	return append(set[:n], append([]float64(nil), v...))
}

// atLeast reports whether a ≥ b in every chunk.
func atLeast(a, b []float64) bool {
	for i := range a {
		if a[i] < b[i] {
			return false
		}
	}
	return true
}

// activationPeak is device d's activation peak from its in-flight vectors.
func (tr *iteration) activationPeak(d int, vecs [][]float64, held []float64) float64 {
	for ch, k := range tr.stageOfDev[d] {
		held[ch] = tr.actBytes[k] + tr.expertActivations(k)
	}
	var peak float64
	for _, v := range vecs {
		var b float64
		for ch, n := range v {
			b += n * held[ch]
		}
		peak = max(peak, b)
	}
	return peak
}
