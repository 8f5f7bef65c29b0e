// Package published holds the measured GEMM tables that package gemm's
// parameters were fitted to: XLA's per-shape throughputs of the H100, B200
// and MI300X and a sample of an A100's (each file's header names its
// source and how it was transcribed). They live apart from package gemm
// so that the simulator, and the browser app built from it, carry the
// model without the 80 KB of data; the validation gallery and gemm's own
// tests read them.
package published
