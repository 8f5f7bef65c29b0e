// Package compare sets a measured run (profiler traces imported by package
// kineto) beside the simulation of the scenario that describes it: per
// rank and op class, the measured and simulated time per step and the
// error; and one timeline holding both, a measured and a simulated GPU per
// rank, for one Chrome trace.
//
// Both sides are measured the same way: the simulated run is written as
// Kineto traces (kineto.WriteRank) and analysed by the same code as the
// real ones (kineto.Analyze), so compute, communication, exposed
// communication and idle mean the same on both. A real trace's figures are
// per profiler step (its window's totals ÷ its ProfilerSteps); the
// simulation is one step. The simulated compute is its spans (forward,
// backward, …), not kernels: the GEMM, attention and elementwise split is
// measured only, and memory copies are not simulated.
package compare
