package workload

import (
	"fmt"
	"math"
	"math/rand/v2"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// OpTime is how long gpu takes for an op of flops FLOPs at the given
// fraction of its peak (0 means the GPU's assumed default): flops /
// (peak × efficiency), rounded once by units.Round (hw.GPU.ComputeTime).
func OpTime(flops float64, gpu hw.GPU, efficiency float64) units.Time {
	return gpu.ComputeTime(flops, efficiency)
}

// Utilization is flops done in elapsed time by gpus GPUs of peak FLOP/s
// each, as a fraction of what they could do: flops / (elapsed · gpus ·
// peak). It panics on a non-positive elapsed, gpus or peak.
func Utilization(flops float64, elapsed units.Time, gpus int, peak float64) float64 {
	if elapsed <= 0 || gpus < 1 || !(peak > 0) {
		panic(fmt.Sprintf("workload: utilization needs positive time %v, GPUs %d and peak %v", elapsed, gpus, peak))
	}
	return flops / (elapsed.Seconds() * float64(gpus) * peak)
}

// MFU is model FLOPs utilization (Chowdhery et al. 2022, PaLM, §4.1 and
// App. B): the model FLOPs of one iteration of batch sequences (forward and
// backward, no recomputation, IterationFLOPs(m, batch, "none").Model())
// divided by elapsed time, over gpus × gpu.PeakFLOPS. It does not depend on
// how the work was parallelised or recomputed.
func MFU(m Model, batch int, elapsed units.Time, gpus int, gpu hw.GPU) float64 {
	return Utilization(IterationFLOPs(m, batch, RecomputeNone).Model(), elapsed, gpus, gpu.PeakFLOPS)
}

// HFU is hardware FLOPs utilization (same source): like MFU but counting
// the FLOPs recomputation r adds, i.e. what the GPUs actually executed.
// HFU ≥ MFU, with equality when r is "none".
func HFU(m Model, batch int, r Recompute, elapsed units.Time, gpus int, gpu hw.GPU) float64 {
	return Utilization(IterationFLOPs(m, batch, r).Hardware(), elapsed, gpus, gpu.PeakFLOPS)
}

// Spread is how a synthetic op time varies between draws: a uniform factor
// in 1 ± Jitter and, for stragglers, a lognormal factor exp(Mu + Sigma·Z)
// of mean 1 (scenario.StragglerSigma gives Mu and Sigma for a coefficient
// of variation). Lognormal because slowness multiplies and has a long
// right tail.
type Spread struct {
	Jitter    float64
	Straggle  bool
	Mu, Sigma float64
}

// Time is op time d at the given speed (1 = nominal, 2 = twice as fast),
// spread by sp with numbers drawn from rng in a fixed order: the uniform
// factor when Jitter > 0, then the normal when Straggle. It is at least
// 1ns.
func (sp Spread) Time(rng *rand.Rand, d units.Time, speed float64) units.Time {
	f := 1.0
	if sp.Jitter > 0 {
		f += sp.Jitter * (2*rng.Float64() - 1)
	}
	if sp.Straggle {
		f *= math.Exp(sp.Mu + sp.Sigma*rng.NormFloat64())
	}
	return max(1, units.Round(d.Seconds()*f/speed))
}
