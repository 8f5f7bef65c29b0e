package kineto

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// Trace is what one profiler file says about one rank: its GPU work
// (kernels, copies, sets), the host's launches and GEMM operators, the
// ProfilerStep annotations, and the job's and devices' descriptions. Times
// are nanoseconds on the file's clock (Kineto's microseconds, read
// exactly), not shifted: Timeline moves each rank to start at 0.
type Trace struct {
	// Name is the file's name, for messages and reports.
	Name string `json:"name"`
	// Rank and WorldSize come from distributedInfo; Rank is -1 when the
	// file has none (a single-process run).
	Rank      int `json:"rank"`
	WorldSize int `json:"world_size"`
	// Backend is distributedInfo's backend ("nccl"), empty without it.
	Backend string `json:"backend,omitempty"`
	// Devices are the GPUs deviceProperties lists (every GPU of the host,
	// not only the rank's).
	Devices []Device `json:"devices,omitempty"`
	// HostGPUs is how many GPUs the host has: Devices, else the "GPU n"
	// process labels of the file's metadata (0 when neither says).
	HostGPUs int `json:"host_gpus"`
	// Kernels are the GPU activities (kernels, memcpys, memsets) sorted by
	// start, then device, stream and end.
	Kernels []Kernel `json:"-"`
	// Names interns the activities' names: Kernel.Name indexes it.
	Names []string `json:"-"`
	// NCCL holds the NCCL kernels' collective descriptions (NCCLOf), and
	// Copies the memcpys' and memsets' bytes (BytesOf).
	NCCL   []NCCL        `json:"-"`
	Copies []units.Bytes `json:"-"`
	// Launches are the host's runtime calls with a correlation id
	// (cudaLaunchKernel, cudaMemcpyAsync, ...), sorted by correlation.
	Launches []Launch `json:"-"`
	// RuntimeTime is the time the host spent in CUDA runtime calls, and
	// RuntimeCalls how many there were.
	RuntimeTime  units.Time `json:"runtime_ns"`
	RuntimeCalls int        `json:"runtime_calls"`
	// GEMMOps are the host's matrix-multiply operators with their input
	// shapes (aten::mm, addmm, bmm, baddbmm), when the profiler recorded
	// shapes; sorted by thread, then start.
	GEMMOps []GEMMOp `json:"-"`
	// Steps are the ProfilerStep#N annotations, sorted by start.
	Steps []Step `json:"steps,omitempty"`
	// ParaPlay is the run description a trace written by ParaPlay carries
	// (WriteRank), nil in a profiler's trace.
	ParaPlay *Meta `json:"-"`
	// byExternal indexes GEMMOps by External id (GEMMOf).
	byExternal map[int64]int
	// Ignored counts the events the reader skipped: phases and categories
	// it does not use (flows, instants, CPU operators other than GEMMs).
	Ignored int `json:"ignored_events"`
}

// Device is one entry of Kineto's deviceProperties.
type Device struct {
	// ID is the CUDA device index.
	ID int `json:"id"`
	// Name is the device's marketing name ("NVIDIA A100-SXM4-80GB").
	Name string `json:"name"`
	// Memory is the device's memory in bytes (totalGlobalMem).
	Memory units.Bytes `json:"total_global_mem"`
	// SMs is the number of streaming multiprocessors (numSms).
	SMs int `json:"num_sms"`
	// ComputeMajor and ComputeMinor are the compute capability.
	ComputeMajor int `json:"compute_major"`
	ComputeMinor int `json:"compute_minor"`
}

// Kernel is one GPU activity: a kernel, a memcpy or a memset. It is
// 48 bytes, a trace holds millions: what only some activities have sits
// in side tables that Ref indexes.
type Kernel struct {
	// Start and End bound it, in ns on the file's clock; End ≥ Start.
	Start, End units.Time
	// Correlation ties it to the host call that launched it (Launch), 0
	// when the file gives none; External ties it to the host operator.
	Correlation, External int64
	// Name indexes Trace.Names.
	Name int32
	// Stream is the CUDA stream.
	Stream int32
	// Ref indexes the side table of its class: Trace.NCCL for a
	// Collective, Trace.Copies for a Memcpy or Memset, the span args of a
	// trace ParaPlay wrote for a Spanned; -1 otherwise.
	Ref int32
	// Device is the GPU index.
	Device int16
	// Class is what the activity does.
	Class Class
}

// NCCLOf is k's collective description, nil when k is no collective.
func (t *Trace) NCCLOf(k *Kernel) *NCCL {
	if k.Class != Collective || k.Ref < 0 {
		return nil
	}
	return &t.NCCL[k.Ref]
}

// BytesOf is the payload of a memcpy or memset, 0 for other activities.
func (t *Trace) BytesOf(k *Kernel) units.Bytes {
	if !k.Class.IsMemory() || k.Ref < 0 {
		return 0
	}
	return t.Copies[k.Ref]
}

// Dur is the activity's length.
func (k *Kernel) Dur() units.Time { return k.End - k.Start }

// NCCL is a collective kernel's description, from the kernel's args (the
// ones PyTorch's NCCL profiling adds: Collective name, In/Out msg nelems,
// dtype, Group size) and from its name (algorithm and protocol).
type NCCL struct {
	// Op is the operation in ParaPlay's spelling (all_reduce, …); "nccl"
	// when neither the args nor the name say.
	Op collective.Op `json:"op"`
	// Algorithm and Protocol are parsed from the kernel's name
	// ("ncclKernel_AllReduce_RING_LL_Sum_float": ring, ll), empty when
	// it does not say.
	Algorithm string `json:"algorithm,omitempty"`
	Protocol  string `json:"protocol,omitempty"`
	// Elements is the larger of In and Out msg nelems (the buffer
	// nccl-tests calls the size); 0 when the args do not say.
	Elements int64 `json:"elements"`
	// DType is the element type as PyTorch names it ("Float"), and Bytes
	// Elements times its size (0 when the type is unknown).
	DType string      `json:"dtype,omitempty"`
	Bytes units.Bytes `json:"bytes"`
	// GroupSize is the ranks of the process group (0 when not given).
	GroupSize int `json:"group_size"`
	// Group names the process group ("0", "default_pg").
	Group string `json:"group,omitempty"`
	// Collective is the collective's index in the run a trace ParaPlay
	// wrote, -1 otherwise; Channels, Purpose and Ranks (the GPU ids taking
	// part) are its timeline.Collective's fields there.
	Collective int32  `json:"-"`
	Channels   int    `json:"-"`
	Purpose    string `json:"-"`
	Ranks      []int  `json:"-"`
}

// Launch is one host runtime call with a correlation id.
type Launch struct {
	// Correlation is the id the launched GPU activity carries.
	Correlation int64
	// Start and End bound the call on the host's clock.
	Start, End units.Time
	// Thread is the host thread that made the call.
	Thread int64
}

// GEMMOp is one host matrix-multiply operator with its shape.
type GEMMOp struct {
	// Thread is the host thread; Start and End bound the operator.
	Thread     int64
	Start, End units.Time
	// External is the operator's External id, which newer profilers put
	// on the kernels it launches.
	External int64
	// Batch, M, N and K are the product's shape: Batch × (M×K · K×N).
	Batch, M, N, K int64
	// DType is the first input's type as PyTorch names it ("float",
	// "c10::BFloat16").
	DType string
}

// Step is one ProfilerStep#N annotation.
type Step struct {
	// Number is N.
	Number int `json:"number"`
	// Start and End bound the step on the host's clock.
	Start units.Time `json:"start_ns"`
	End   units.Time `json:"end_ns"`
}

// Limits bound what Read accepts, so that a hostile or broken file costs
// bounded time and memory. The zero value means DefaultLimits.
type Limits struct {
	// MaxBytes is the most input read, 1 KiB..1 TiB.
	MaxBytes int64
	// MaxValue is the largest single JSON value (an event, a string), 1
	// KiB..MaxBytes: the decoder holds one value at a time.
	MaxValue int64
	// MaxEvents is the most events kept (GPU activities, launches, GEMM
	// operators, steps), 1..1<<28; skipped events do not count.
	MaxEvents int
}

// DefaultLimits reads the largest traces a profiler writes for one rank (a
// few GB, some millions of kernels) in well under 1 GB of memory.
var DefaultLimits = Limits{MaxBytes: 8 << 30, MaxValue: 16 << 20, MaxEvents: 8 << 20}

// Validate checks each limit's range.
func (l Limits) Validate() error {
	switch {
	case l.MaxBytes < 1<<10 || l.MaxBytes > 1<<40:
		return fmt.Errorf("kineto: limits.max_bytes is %d; allowed 1KiB..1TiB", l.MaxBytes)
	case l.MaxValue < 1<<10 || l.MaxValue > l.MaxBytes:
		return fmt.Errorf("kineto: limits.max_value is %d; allowed 1KiB..max_bytes (%d)", l.MaxValue, l.MaxBytes)
	case l.MaxEvents < 1 || l.MaxEvents > 1<<28:
		return fmt.Errorf("kineto: limits.max_events is %d; allowed 1..%d", l.MaxEvents, 1<<28)
	}
	return nil
}

// KernelName is the name of activity k.
func (t *Trace) KernelName(k *Kernel) string { return t.Names[k.Name] }
