package hw

import "paraplay/sim/units"

// DeviceReserve is the device memory a training process holds before it
// allocates a tensor, by GPU type: what the driver and the math libraries
// take, which the model's own accounting (weights, gradients, optimizer
// states, activations) never sees. The communication library's buffers
// and the allocator's segments depend on the parallel plan, so the
// training strategy adds them (sim/training, reserve.go).
type DeviceReserve struct {
	// Context is the CUDA (or HIP) context with PyTorch's kernels loaded
	// lazily (CUDA_MODULE_LOADING=LAZY, PyTorch's default since 1.13).
	Context units.Bytes
	// CuBLAS is PyTorch's default cuBLAS plus cuBLASLt workspace on the
	// compute stream.
	CuBLAS units.Bytes
	// Source says where both figures come from and how they were checked.
	Source string
}

// Total is Context + CuBLAS.
func (r DeviceReserve) Total() units.Bytes { return r.Context + r.CuBLAS }

// The context's size grows with the GPU's SM count (the driver reserves
// per-thread local memory for every resident thread; ggml-org/llama.cpp
// PR #23604 measured 555 MiB on a 188-SM Blackwell card against 107 MiB on
// a 34-SM Ada card), so Blackwell parts get their own figure.
const (
	// contextLazy: PyTorch maintainer ptrblck, pytorch/pytorch issue
	// #109888 (2023): "around 400MB if CUDA >= 11.7 is used and lazy module
	// loading enabled"; PR #86509 measured 287,047,680 B lazy against
	// 666,632,192 B eager (GPU not named). Taken for every pre-Blackwell
	// GPU: UNCONFIRMED per GPU model (no H100- or A100-specific
	// measurement found).
	contextLazy = 400 * units.MiB
	// contextBlackwell: sgl-project/sglang issue #25225 (2026) prints
	// torch.cuda.mem_get_info() right after the context is made on an SM100
	// (B200): "free: 177.7 GiB / 178.4 GiB", i.e. 0.7 GiB held (±0.05 GiB
	// of rounding); SM103 (B300) shows 0.6 GiB. Secondary, one report.
	contextBlackwell = 700 * units.MiB
)

// PyTorch's default workspaces (aten/src/ATen/cuda/CublasHandlePool.cpp
// and CUDABlas.cpp): cuBLAS ":4096:2:16:8" (two 4 MiB and eight 16 KiB
// pools) before Hopper and 32 MiB from Hopper on (pytorch/pytorch PR
// #89027, 32 MiB on Blackwell since PR #175344), following the cuBLAS API
// reference (cublasSetWorkspace: 32 MiB recommended for Hopper, 4 MiB for
// other architectures); cuBLASLt 1 MiB, 4 MiB on Ampere with at least
// 24 GB and 32 MiB from Hopper on (PR #120925). Confirmed from the PRs'
// diffs and descriptions; ROCm keeps the 1 MiB hipBLASLt default there.
const (
	cublasPreHopper   = 2*4*units.MiB + 8*16*units.KiB
	cublasHopper      = 32 * units.MiB
	cublasLtOld       = 1 * units.MiB
	cublasLtAmpere    = 4 * units.MiB
	cublasLtHopperOn  = 32 * units.MiB
	reserveSourceNote = "CUDA context: pytorch/pytorch #109888 (~400 MB with lazy loading), #86509 (287 MB lazy, 667 MB eager); " +
		"Blackwell: sgl-project/sglang #25225 (0.7 GiB on B200). cuBLAS/cuBLASLt: PyTorch's defaults (PRs #89027, #120925, #175344) " +
		"after the cuBLAS API reference's recommendation (32 MiB Hopper, 4 MiB otherwise)"
)

// generation is a GPU's architecture family, for the reserve's table.
type generation int

const (
	preAmpere generation = iota // Volta, Turing
	ampere
	hopper
	blackwell
	cdna // AMD Instinct (HIP)
	tpu  // Google TPU (XLA, no CUDA)
)

// generations places every catalog GPU; a test holds the table to the
// catalog.
var generations = map[string]generation{
	"v100-sxm": preAmpere, "t4": preAmpere,
	"a100-sxm-40gb": ampere, "a100-sxm-80gb": ampere, "a10g": ampere,
	"h100-sxm": hopper, "h100-pcie": hopper, "h200": hopper, "h800": hopper, "h20": hopper,
	"b200": blackwell, "gb200": blackwell,
	"mi300x": cdna, "mi325x": cdna,
	"tpu-v4": tpu, "tpu-v5e": tpu, "tpu-v5p": tpu, "tpu-v6e": tpu, "tpu7x": tpu,
}

// Reserve returns the GPU's device reserve. A GPU the table does not know
// (a custom one) gets the pre-Blackwell context and Hopper's workspaces,
// the larger of the pre-Blackwell figures.
func (g GPU) Reserve() DeviceReserve {
	r := DeviceReserve{Context: contextLazy, Source: reserveSourceNote}
	gen, known := generations[g.Name]
	switch {
	case !known || gen == hopper:
		r.CuBLAS = cublasHopper + cublasLtHopperOn
	case gen == blackwell:
		r.Context, r.CuBLAS = contextBlackwell, cublasHopper+cublasLtHopperOn
	case gen == ampere && g.HBM >= 24*units.GiB:
		r.CuBLAS = cublasPreHopper + cublasLtAmpere
	case gen == tpu:
		// A TPU has no CUDA context nor cuBLAS workspace; what the XLA
		// runtime keeps of the HBM is not modelled (UNCONFIRMED: 0).
		return DeviceReserve{Source: cite("TPU: no CUDA context or BLAS workspace; the XLA runtime's own reservation is not modelled (UNCONFIRMED, taken as 0)")}
	case gen == cdna:
		// UNCONFIRMED: the HIP context is taken at the CUDA figure and
		// the hipBLAS workspace at cuBLAS's pre-Hopper default (PyTorch
		// keeps hipBLASLt at 1 MiB, PR #120925); no MI300X measurement
		// found.
		r.CuBLAS = cublasPreHopper + cublasLtOld
	default:
		r.CuBLAS = cublasPreHopper + cublasLtOld
	}
	return r
}
