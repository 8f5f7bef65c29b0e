package kineto

import (
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
)

// Class is what a GPU activity does, read from its category and name.
type Class uint8

// The classes, in the order reports list them.
const (
	// GEMM is a matrix multiply or a convolution run as one (cuBLAS,
	// CUTLASS, cuDNN's implicit GEMMs, gemv).
	GEMM Class = iota
	// Attention is a fused attention kernel (FlashAttention, fmha, SDPA).
	Attention
	// Elementwise is an elementwise, normalisation, softmax, reduction or
	// optimizer kernel: the memory-bound kernels around the GEMMs.
	Elementwise
	// Other is any other kernel (scans, embedding lookups, sorts).
	Other
	// Collective is an NCCL kernel: communication.
	Collective
	// Memcpy is a memory copy (gpu_memcpy).
	Memcpy
	// Memset is a memory set (gpu_memset).
	Memset
	// Spanned is a span ParaPlay wrote: its kind is its own (Meta).
	Spanned
	numClasses
)

var classNames = [numClasses]string{"gemm", "attention", "elementwise", "other", "collective", "memcpy", "memset", "paraplay"}

// String names the class as reports and JSON do.
func (c Class) String() string {
	if c >= numClasses {
		return "unknown"
	}
	return classNames[c]
}

// MarshalText writes the class's name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Kind is the timeline kind of a span of this class.
func (c Class) Kind() timeline.Kind {
	switch c {
	case GEMM:
		return timeline.GEMM
	case Attention:
		return timeline.Attention
	case Elementwise:
		return timeline.Elementwise
	case Memcpy:
		return timeline.Memcpy
	case Memset:
		return timeline.Memset
	}
	return timeline.Kernel
}

// IsMemory reports whether the class is a copy or a set.
func (c Class) IsMemory() bool { return c == Memcpy || c == Memset }

// The substrings that classify a kernel's name, lower-cased; the first
// list that matches wins, attention before GEMM (CUTLASS's fmha kernels
// name both). Each comes from the kernel names the libraries give:
// FlashAttention's flash_fwd_kernel, xformers' and PyTorch's fmha_cutlass,
// cuDNN's sdpa engines; cuBLAS's ampere_/sm80_xmma_/nvjet_ GEMMs,
// CUTLASS's cutlass::Kernel, cuDNN's implicit-GEMM convolutions; ATen's
// vectorized_elementwise_kernel, layer/batch/RMS norms (with layer norm's
// GammaBetaBackward and group norm's RowwiseMoments), softmax, the fused
// optimizers' multi_tensor_apply.
var (
	attentionNames   = []string{"flash", "fmha", "attention", "attn", "sdpa", "mha_"}
	gemmNames        = []string{"gemm", "gemv", "cutlass", "cublas", "xmma", "nvjet", "matmul", "ampere_", "volta_", "turing_", "hopper_", "sm80_", "sm90_", "sm100_", "implicit", "dgrad", "wgrad", "fprop"}
	elementwiseNames = []string{"elementwise", "vectorized", "unrolled", "norm", "gammabeta", "moments", "bn_", "softmax", "dropout", "gelu", "relu", "silu", "swiglu", "rotary", "rope", "adam", "multi_tensor", "fill", "copy", "reduce", "cat", "transpose", "nchwtonhwc", "nhwctonchw", "cast", "index"}
)

// classify says what a GPU activity of category cat (lower-cased) and
// name does; nccl is true when its args describe a collective.
func classify(cat, name string, nccl bool) Class {
	switch cat {
	case "gpu_memcpy", "memcpy":
		return Memcpy
	case "gpu_memset", "memset":
		return Memset
	}
	lower := strings.ToLower(name)
	if nccl || strings.Contains(lower, "nccl") {
		return Collective
	}
	if strings.Contains(lower, "embedding") {
		return Other // embedding lookups, whose library is FBGEMM: not GEMMs
	}
	lower = strings.ReplaceAll(lower, "fbgemm", "")
	for _, group := range []struct {
		names []string
		class Class
	}{{attentionNames, Attention}, {gemmNames, GEMM}, {elementwiseNames, Elementwise}} {
		for _, s := range group.names {
			if strings.Contains(lower, s) {
				return group.class
			}
		}
	}
	return Other
}

// ncclOps maps a collective's name, lower-cased with its underscores
// removed, by prefix to ParaPlay's operation: PyTorch writes "allreduce",
// "_allgather_base", "allgather_into_tensor_coalesced", "reduce_scatter",
// "all_to_allv", "send"; NCCL's kernel names "AllReduce", "SendRecv".
// Longer prefixes come first ("reducescatter" before "reduce").
var ncclOps = []struct {
	prefix string
	op     collective.Op
}{
	{"allreduce", collective.OpAllReduce},
	{"allgather", collective.OpAllGather},
	{"reducescatter", collective.OpReduceScatter},
	{"alltoall", collective.OpAllToAll},
	{"broadcast", collective.OpBroadcast},
	{"sendrecv", collective.OpSendRecv},
	{"send", collective.OpSendRecv},
	{"recv", collective.OpSendRecv},
	{"reduce", collective.OpReduce},
	{"barrier", collective.OpBarrier},
}

// ncclOp reads the operation from a collective's name ("" when it names
// none of ncclOps).
func ncclOp(name string) collective.Op {
	squashed := strings.ReplaceAll(strings.ToLower(name), "_", "")
	for _, o := range ncclOps {
		if strings.HasPrefix(squashed, o.prefix) {
			return o.op
		}
	}
	return ""
}

// ncclKernelName parses NCCL's kernel name, "ncclKernel_AllReduce_RING_LL_Sum_float(…)"
// or "ncclDevKernel_AllGather_RING_LL(…)": the operation, the algorithm
// and the protocol, each empty when the name does not say.
func ncclKernelName(name string) (op collective.Op, algo, proto string) {
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	parts := strings.Split(name, "_")
	if len(parts) < 2 || !strings.HasPrefix(strings.ToLower(parts[0]), "nccl") {
		return "", "", ""
	}
	op = ncclOp(parts[1])
	for _, p := range parts[2:] {
		switch l := strings.ToLower(p); l {
		case "ring", "tree", "collnet", "nvls", "pat":
			if algo == "" {
				algo = l
			}
		case "ll", "ll128", "simple":
			proto = l
		}
	}
	return op, algo, proto
}

// dtypeSize is the bytes of one element of a PyTorch or NCCL type name
// ("Float", "BFloat16", "c10::Half", "int8_t"), 0 when unknown.
func dtypeSize(name string) int64 {
	l := strings.ToLower(strings.TrimPrefix(name, "c10::"))
	switch l {
	case "double", "float64", "long", "int64", "int64_t", "uint64", "uint64_t", "complexfloat":
		return 8
	case "float", "float32", "int", "int32", "int32_t", "uint32", "uint32_t":
		return 4
	case "half", "float16", "bfloat16", "short", "int16", "int16_t":
		return 2
	case "byte", "char", "bool", "int8", "int8_t", "uint8", "uint8_t":
		return 1
	}
	if strings.HasPrefix(l, "float8") {
		return 1
	}
	return 0
}
