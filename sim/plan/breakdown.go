package plan

import "paraplay/sim/units"

// Parts are the kinds of time a Breakdown splits an iteration into, in
// the order a table prints them: compute (recomputation and the optimizer
// step included for a simulated plan), the idle time of the pipeline
// bubble, and the communication no compute hid, by kind.
var Parts = []string{"compute", "bubble", "tp", "cp", "ep", "pp", "dp", "zero", "optimizer"}

// Breakdown is where a plan's iteration goes, per GPU.
type Breakdown struct {
	// Label names the plan for people (Plan.Label).
	Label string `json:"label"`
	// Role says why the plan is shown: best, runner-up, or a naive layout.
	Role string `json:"role"`
	// Simulated says the parts are a simulated run's (the mean GPU's
	// compute, the exposed communication by kind, the idle rest); else
	// they are the lower bound's, on the device that sets it.
	Simulated bool `json:"simulated"`
	// Fits says the plan fits in memory; an out-of-memory plan has no
	// time parts.
	Fits bool `json:"fits"`
	// Iteration is the simulated iteration, or the lower bound, in s.
	Iteration float64 `json:"iteration_s"`
	// Seconds holds each part of Parts that is not zero, in s.
	Seconds map[string]float64 `json:"parts_s"`
	// PeakMemory and Headroom are the peak per GPU and what is left of
	// the GPU's memory (negative when it does not fit), in bytes.
	PeakMemory units.Bytes `json:"peak_memory_bytes"`
	Headroom   units.Bytes `json:"headroom_bytes"`
	// Versus says in words how the plan compares with the best.
	Versus string `json:"versus_best,omitempty"`
}
