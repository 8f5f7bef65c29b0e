// Package calibrate fits the simulator's free figures to one cluster's
// measurements and writes them as a calibration (hw.Calibration) that
// later runs price with:
//
//   - a link's α and bandwidth, by least squares on the collective's own
//     closed form: each measured collective (a row of an nccl-tests log, an
//     NCCL kernel of a profiler trace with its size and group) has time
//     t = α·A + β·F, where A and F are what collective.Time gives for that
//     operation, algorithm, rank count and size with α = 1 s and β = 0, and
//     with α = 0 and β = 1 s/B (for a ring all-reduce over n ranks,
//     A = 2(n−1) and F = 2(n−1)/n·S: Thakur, Rabenseifner and Gropp 2005).
//     The fit minimises the squared relative errors Σ((α·A + β·F − t)/t)²,
//     so that an 8-byte row and an 8-GB row weigh alike; bandwidth = 1/β.
//   - a GPU's GEMM efficiency scale s against package gemm: each GEMM
//     kernel whose shape the trace gives (the host operator's Input Dims)
//     has a modelled time L + b (launch, body); the fit finds u = 1/s
//     minimising Σ((L + u·b − t)/t)² over the measured times t.
//
// Both report every point's fitted time and relative residual. The
// calibration file is YAML (Marshal, Parse); the command line reads and
// writes it, this package does no I/O.
package calibrate
