//go:build !js

package training

import (
	"math"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// sdpMetrics is subnetwork data parallelism's part of a caption (see
// subnets), for worker 0: its model states beside the formula — mixed
// precision Adam's 2 + 2 + 12 bytes for each parameter it holds, Ψ_w,
// and with backward masking 2 bytes for every other one, which its full
// forward reads — and the gradient bytes it brings to the sums beside f
// of the layers' plus all of the shared parameters' (2·Ψ_w; with one
// holder a slice only the shared ones are summed).
func sdpMetrics(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	c := SDPOf(&s)
	mdl, err := s.Model.Resolve()
	n := s.Parallel.DP
	m := int(math.Round(c.Fraction * float64(n)))
	if m == 0 || m == n || err != nil || len(tl.Memory) == 0 {
		return nil
	}
	p := workload.Params(mdl)
	shared := float64(p.Embedding + p.FinalNorm + p.Head)
	held := shared
	if c.Level == "neuron" {
		norms := 2 * float64(p.FinalNorm) * float64(mdl.Layers)
		shared += norms
		held = shared + c.Fraction*(float64(p.Total())-shared)
	} else {
		for b := 0; b < mdl.Layers; b++ { // worker 0's slices: 0 … m−1 (cyclic), 0, dp/m, … (disjoint)
			if sl := b % n; (c.Assignment == "disjoint" && sl%(n/m) == 0) || (c.Assignment != "disjoint" && sl < m) {
				held += float64(p.PerLayer)
			}
		}
	}
	want, formula := 16*held, "16·Ψ_w"
	if c.Masking == "backward" {
		want, formula = 2*float64(p.Total())+14*held, "2Ψ + 14·Ψ_w"
	}
	mem := tl.Memory[0]
	states := float64(mem.Parameters + mem.Gradients + mem.OptimizerStates)
	var sums float64
	for _, col := range tl.Collectives {
		for _, g := range col.GPUs {
			if g == 0 && (col.Purpose == "dp" || col.Purpose == "sdp") {
				sums += float64(col.Bytes)
			}
		}
	}
	grads, what := 2*held, "f of the layers' gradients and all the shared ones"
	if m == 1 {
		grads, what = 2*shared, "the shared parameters' alone (one holder a slice)"
	}
	src := "Singh, Khalid, Oyallon and Belilovsky 2025; mixed-precision Adam (Rajbhandari et al. 2020)"
	parts := []strategy.Part{strategy.Compare(strategy.Check{Name: "subnetwork model states", Formula: formula, Source: src, Tolerance: 1e-6},
		"model states per worker {}; formula "+formula+" = {}", states, want, strategy.GiB)}
	if sums > 0 {
		parts = append(parts, strategy.Compare(strategy.Check{Name: "subnetwork gradient bytes", Formula: "2·Ψ_w", Source: src, Tolerance: 1e-6},
			"gradient bytes a worker sums {}; "+what+" = {}", sums, grads, strategy.Size))
	}
	return parts
}
