// Package cost turns one simulated training iteration into what a run to a
// token budget costs: days, GPU-hours, dollars, energy and emissions, and,
// for a long run with failures, dollars per useful token.
//
// The model (Estimate), each step a plain product:
//
//	iterations = tokens / tokens per iteration
//	wall time  = iterations × iteration time
//	GPU-hours  = GPUs × wall time
//	dollars    = Σ over GPUs of $/GPU-hour × wall time
//	power      = Σ over GPUs of idle + (TDP − idle) × busy fraction
//	energy     = power × PUE × wall time
//	CO₂        = energy × grid intensity
//
// A GPU's power is linear in its busy fraction (Power): the board draws
// its idle power holding a CUDA context, its TDP when its streams never
// rest, and in between in proportion to the time a kernel (compute or a
// collective) runs, which is what nvidia-smi's utilization.gpu measures.
// This is the linear utilisation model of data-centre power studies, an
// upper bound at full utilisation (a run rarely holds its GPUs at TDP);
// the figures count the GPUs' boards only: CPUs, memory, NICs and
// switches are left out, and PUE scales the boards' energy to the
// facility's. TDP and idle come from the GPU preset (package hw: the
// datasheet's TDP, an ASSUMED idle), the price per GPU-hour is the
// preset's ASSUMED illustrative rate unless cost.gpu_hour sets one, and
// PUE and grid intensity default to DefaultPUE and DefaultGridKgPerKWh.
package cost
