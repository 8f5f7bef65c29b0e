package operators

import "math"

// A fused attention kernel walks, for each block of queries, the blocks of
// keys it attends to; every key block costs its two small matmuls plus a
// fixed amount of work that is not a matmul (the online softmax's
// rescaling, the pipeline's fill), and every query block a fixed prologue
// and epilogue (loading Q, writing O and the logsumexp). Per query, the
// time is then proportional to (keys + FlashHalfKeys), of which only keys
// do useful multiply-adds, so the kernel's fraction of peak is
//
//	efficiency = E∞ · keys / (keys + FlashHalfKeys)
//
// with keys the keys a query attends to (half the key length under a
// causal mask, which skips the masked blocks) and E∞ the rate it tends to
// on long sequences. Both are fitted to one public measurement:
// FlashAttention-3's forward pass on an H100, head dimension 128, 16 heads
// and batch × sequence = 16K tokens, at 430, 517, 566, 590, 614 and 621
// TFLOP/s for sequences of 512 to 16K (pytorch/benchmark, commit ff65cb67,
// "Fix dimension order for FlashAttention-3 (#2391)", its test plan; read
// through the search tool). The commit names neither the H100's variant
// nor the mask; the points are taken as an H100 SXM's (989.4 TFLOP/s
// peak) without a mask, UNCONFIRMED. The fit, E∞ = 0.64 and 240 keys,
// gives 0.436 … 0.631 of peak against the measured 0.435 … 0.628, within
// 3% at every point (TestFlashEfficiencyAgainstFA3).
const (
	// FlashHalfKeys is the keys per query at which the kernel runs at half
	// its long-sequence rate.
	FlashHalfKeys = 240
	// FlashLongFraction is E∞ as a fraction of the GPU's maximum
	// achievable GEMM rate: 0.64 of the H100's peak over its 794.5 of
	// 989.4 TFLOP/s GEMM ceiling (ml-engineering's MAMF table, as
	// sim/gemm cites it), about 0.80. Other GPUs take the same fraction
	// of their own GEMM ceiling, UNCONFIRMED (on an A100 it gives 0.70 of
	// peak, near the "up to 73%" FlashAttention-2 reports there).
	FlashLongFraction = 0.64 / (794.5 / 989.4)
)

// FlashEfficiency is a fused attention kernel's fraction of the tensor
// cores' peak on a GPU whose maximum achievable GEMM rate is ceiling (a
// fraction of peak, in (0, 1]): ceiling · FlashLongFraction ·
// keys / (keys + FlashHalfKeys), keys as in the comment above. It depends
// on the shape and the GPU only; a kernel with no keys gets the smallest
// positive fraction, so that a roofline can still divide by it.
func FlashEfficiency(a Attention, ceiling float64) float64 {
	keys := float64(a.KeyLen)
	if a.Causal && a.QueryLen > 1 {
		keys /= 2
	}
	e := ceiling * FlashLongFraction * keys / (keys + FlashHalfKeys)
	if !(e > 0) {
		return math.SmallestNonzeroFloat64
	}
	return min(e, 1)
}
