// Package gemm prices one matrix multiplication (GEMM) on one GPU from its
// shape, its dtype and the GPU alone: how long it takes and what fraction
// of the GPU's dense peak it reaches. A fixed fraction of peak cannot be
// right for a 256-wide and a 25,600-wide layer; this model says why.
//
// # The model
//
// A GEMM's output (Batch × M × N) is cut into tiles of tm × tn, each
// computed by one SM (a compute unit on AMD) while it walks the K
// dimension. The library picks, among the tiles it has (64×64 to 256×128)
// and split-K factors (K cut into s slices on different SMs, partial sums
// reduced after), the fastest; so does the model:
//
//	t = launch + min over (tm, tn, s) of max(compute, memory)
//	compute = ⌈Batch·⌈M/tm⌉·⌈N/tn⌉·s / SMs⌉ · (2·tm·tn·⌈K/s⌉ / r + tile overhead)
//	r       = (ceiling / SMs) · min(1, (tm·tn/(tm+tn)) / balance)
//	memory  = (Batch·(M·K + K·N)·in + Batch·M·N·out [+ 8·Batch·M·N·s if s > 1]) / (HBM bandwidth · η)
//
// The ⌈·⌉ are tile quantization (a partial tile costs a whole one) and
// wave quantization (a partial wave of SMs costs a whole wave): a GEMM of
// 133 tiles on a 132-SM H100 would take twice as long as one of 132, but
// for the smaller tiles and finer K splits the library then turns to, which
// cut the loss to about an eighth (TestWaveQuantization).
// r is an SM's rate on its tile: the GPU's maximum achievable matmul FLOP/s
// shared by its SMs, unless the tile reuses each operand element too few
// times (tm·tn/(tm+tn) multiply-adds per element loaded per K step) for the
// operands to arrive in time. The memory term is the roofline's bandwidth
// bound, so small and skinny GEMMs (a decode step's matrix-vector products)
// are priced by their bytes; launch is the floor under every GEMM.
//
// # Parameters and sources
//
// Per GPU (Params, Catalog): the SM count and the dtype rates come from
// datasheets and whitepapers; the ceiling of each dtype is the "Maximum
// Achievable Matmul FLOPS" that ml-engineering's mamf-finder measured
// (stas00/ml-engineering), where it has one; balance, tile overhead, launch
// and η are fitted (TestFit, a coordinate search) to the measured tables
// XLA ships for its latency-hiding scheduler (openxla/xla,
// xla/service/gpu/model/matmul_interpolator_data.h: 375 shapes per GPU,
// b ∈ {1, 2, 4}, m, n, k ∈ {256 … 4096}), transcribed in
// published/xla_matmul.txt. GPUs without a table borrow the fitted
// parameters of a measured one and say so (UNCONFIRMED) in Basis.
//
// Nothing in the model names a model, a paper or a run: Time takes a GPU, a
// shape and a dtype, and TestDependsOnlyOnShapeDTypeAndGPU holds it there.
//
// # Accuracy
//
// Against the measured tables, |modelled FLOP/s − measured| / measured over
// all 375 shapes (TestAgainstMeasuredTable): H100 bf16 median 4.1%, p90
// 11.8%; B200 bf16 3.5%, 11.3%; B200 tf32 7.3%, 17.1%; B200 fp8 5.2%,
// 14.4%. Reported, not asserted: H100 tf32 (11.4%, 31.7%) and MI300X
// (bf16 14.8%, 35.6%), whose tables disagree with themselves by as much
// (TestTableSelfConsistency), and H100 fp8, whose table runs faster than the
// H100's datasheet peak (TestH100FP8ColumnExceedsPeak). The tables stop at
// 4096 per dimension: beyond, the model extrapolates to its ceiling.
//
// The model is a few dozen float operations per call, with no state: build
// a Model once per GPU with For and call it as often as needed.
package gemm
