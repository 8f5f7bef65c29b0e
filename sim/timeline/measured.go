package timeline

// The kinds of span of a measured run (an imported profiler trace, package
// kineto): a GPU's kernels by what they do. They are compute (not
// IsCommunication): a measured run's communication is its collectives.
const (
	// GEMM is a matrix multiply (cuBLAS, CUTLASS) or a convolution run as one.
	GEMM Kind = "gemm"
	// Attention is a fused attention kernel (FlashAttention, fmha).
	Attention Kind = "attention"
	// Elementwise is an elementwise, normalisation, softmax or optimizer kernel.
	Elementwise Kind = "elementwise"
	// Kernel is any other kernel.
	Kernel Kind = "kernel"
	// Memcpy and Memset are memory copies and sets.
	Memcpy Kind = "memcpy"
	Memset Kind = "memset"
)

// Measured is the Fidelity of a timeline read from a profiler's trace
// rather than simulated.
const Measured = "measured"
