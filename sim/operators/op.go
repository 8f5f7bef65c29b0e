package operators

// DType is a number format of a kernel's inputs.
type DType string

// Number formats.
const (
	// BF16 is bfloat16, 2 bytes.
	BF16 DType = "bf16"
	// FP16 is IEEE half precision, 2 bytes.
	FP16 DType = "fp16"
	// FP8 is an 8-bit float (E4M3 or E5M2), 1 byte.
	FP8 DType = "fp8"
	// FP32 is single precision, 4 bytes: optimizer states, master weights,
	// Megatron's main gradients, softmax statistics.
	FP32 DType = "fp32"
)

// Bytes is the size of one element.
func (d DType) Bytes() float64 {
	switch d {
	case FP8:
		return 1
	case FP32:
		return 4
	default:
		return 2
	}
}

// Kind is what sort of kernel an op is, which decides how it is priced.
type Kind string

// Op kinds.
const (
	// KindGEMM is a (batched) matrix multiplication, priced at the tensor
	// cores' peak times the efficiency of its shape.
	KindGEMM Kind = "gemm"
	// KindAttention is a fused attention kernel (FlashAttention), priced
	// at the tensor cores' peak times its own efficiency.
	KindAttention Kind = "attention"
	// KindElementwise is a pointwise kernel (activation, dropout, residual,
	// rotary, cast, gather), bound by memory traffic.
	KindElementwise Kind = "elementwise"
	// KindReduction is a kernel that reduces along rows (norms, softmax,
	// cross-entropy, the optimizer's norm), bound by memory traffic.
	KindReduction Kind = "reduction"
	// KindCollective is communication over a process group, priced by
	// sim/collective, not by the roofline.
	KindCollective Kind = "collective"
)

// Phase is when an op runs in a training step.
type Phase string

// Phases, in the split pipeline schedules use (Qi et al. 2024).
const (
	// Forward is the forward pass, F.
	Forward Phase = "forward"
	// Recompute is forward work redone before the backward pass.
	Recompute Phase = "recompute"
	// BackwardInput is the backward pass for input gradients, B.
	BackwardInput Phase = "backward_input"
	// BackwardWeight is the backward pass for weight gradients, W.
	BackwardWeight Phase = "backward_weight"
	// Step is the optimizer step after the last microbatch.
	Step Phase = "step"
)

// GEMM is the shape of C = A·B with A of m×k and B of k×n, repeated Batch
// times (a batched GEMM, one per attention head and sequence).
type GEMM struct {
	// M, N and K are the matrix dimensions.
	M, N, K int
	// Batch is how many independent products one kernel runs; 1 for a
	// weight matmul.
	Batch int
}

// FLOPs is 2·m·n·k·batch: one multiply and one add per term.
func (g GEMM) FLOPs() float64 {
	return 2 * float64(g.M) * float64(g.N) * float64(g.K) * float64(g.Batch)
}

// Attention is the shape of a fused attention kernel on one GPU.
type Attention struct {
	// Batch is the number of sequences b.
	Batch int
	// Heads and KVHeads are the query and key/value heads on this GPU
	// (a/t and kv_heads/t).
	Heads, KVHeads int
	// QueryLen is the queries per sequence on this GPU (s/c) and KeyLen
	// the keys they attend to (s).
	QueryLen, KeyLen int
	// HeadDim is the width d of one query and key head.
	HeadDim int
	// VHeadDim is the width of one value (and output) head; 0 means
	// HeadDim (MLA's differ: 192 and 128 in DeepSeek-V3).
	VHeadDim int
	// Causal says whether the kernel skips the masked half of the scores.
	Causal bool
}

// Comm is a collective an op stands for.
type Comm struct {
	// Op is the collective in the scenario's spelling: "all_reduce",
	// "all_gather", "reduce_scatter", "all_to_all" (bytes one rank sends
	// in total) or "send_recv" (ring attention's point-to-point exchange,
	// Bytes in total over its steps).
	Op string
	// Group is the process group: "tp", "cp", "dp", "ep" (expert
	// parallel) or "etp" (expert tensor parallel).
	Group string
	// Bytes is the buffer size S in the convention of reference.md: the
	// whole buffer for all-reduce and reduce-scatter, the gathered size for
	// all-gather.
	Bytes float64
}

// Op is one kernel (or one collective) on one GPU for one microbatch.
type Op struct {
	// The blank field makes Op incomparable, so the compiler generates no
	// equality code for it and its array literals (smaller wasm).
	_ [0]func()
	// Name says what the op is, e.g. "attn.qkv" or "attn.qkv.wgrad".
	Name string
	// Kind decides how the op is priced.
	Kind Kind
	// Phase is when the op runs.
	Phase Phase
	// DType is the format of the op's inputs, which picks the peak.
	DType DType
	// GEMM is the shape of a KindGEMM op.
	GEMM GEMM
	// Attention is the shape of a KindAttention op.
	Attention Attention
	// Comm is the collective of a KindCollective op.
	Comm Comm
	// FLOPs is what the hardware executes, recomputation included.
	FLOPs float64
	// ModelFLOPs is the part of FLOPs that counts toward MFU (Chowdhery et
	// al. 2022): matmul work only (GEMMs and attention, as Narayanan et al.
	// 2021 count), 0 for recomputation, 2× the forward for flash backward.
	ModelFLOPs float64
	// ReadBytes and WriteBytes are the op's HBM traffic, each tensor read
	// or written once (tiles reused on chip).
	ReadBytes, WriteBytes float64
	// SavedBytes is what a forward op keeps for the backward pass, in the
	// tensors of Korthikanti et al. 2022's accounting.
	SavedBytes float64
	// SavedStats is the per-row statistics it keeps beyond those (norm
	// mean and rstd, attention logsumexp), which the paper leaves out.
	SavedStats float64
	// Grouped marks a later piece of a grouped GEMM (one expert's share of
	// a mixture's expert GEMMs): the kernel's one launch is paid by its
	// first piece, so this one pays none and counts no kernel.
	Grouped bool
}

// Bytes is ReadBytes + WriteBytes.
func (o Op) Bytes() float64 { return o.ReadBytes + o.WriteBytes }

// IsMatmul reports whether o is a GEMM or fused attention: the work that
// Narayanan et al. 2021 count.
func (o Op) IsMatmul() bool { return o.Kind == KindGEMM || o.Kind == KindAttention }

// List is a sequence of ops in the order they run.
type List []Op

// Select returns the ops for which keep is true, in order.
func (l List) Select(keep func(Op) bool) List {
	var out List
	for _, o := range l {
		if keep(o) {
			out = append(out, o)
		}
	}
	return out
}

// InPhase returns the ops of phase p.
func (l List) InPhase(p Phase) List { return l.Select(func(o Op) bool { return o.Phase == p }) }

// Totals are sums over a list.
type Totals struct {
	// FLOPs and ModelFLOPs sum those fields.
	FLOPs, ModelFLOPs float64
	// ReadBytes and WriteBytes sum HBM traffic of compute ops.
	ReadBytes, WriteBytes float64
	// SavedBytes and SavedStats sum what forward-phase ops keep.
	SavedBytes, SavedStats float64
	// RecomputeSaved is what the recomputed forward keeps while its
	// layer's backward runs: transient, one layer at a time.
	RecomputeSaved float64
	// CommBytes sums the collectives' buffer sizes.
	CommBytes float64
	// Kernels counts compute ops (each pays a launch).
	Kernels int
}

// Saved is SavedBytes + SavedStats.
func (t Totals) Saved() float64 { return t.SavedBytes + t.SavedStats }

// Totals sums l.
func (l List) Totals() Totals {
	var t Totals
	for _, o := range l {
		if o.Kind == KindCollective {
			t.CommBytes += o.Comm.Bytes
			continue
		}
		if !o.Grouped {
			t.Kernels++
		}
		t.FLOPs += o.FLOPs
		t.ModelFLOPs += o.ModelFLOPs
		t.ReadBytes += o.ReadBytes
		t.WriteBytes += o.WriteBytes
		switch o.Phase {
		case Forward:
			t.SavedBytes += o.SavedBytes
			t.SavedStats += o.SavedStats
		case Recompute:
			t.RecomputeSaved += o.SavedBytes + o.SavedStats
		}
	}
	return t
}
