package workload

import (
	"fmt"

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
