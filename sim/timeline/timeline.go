package timeline

import (
	"paraplay/sim/collective"
	"paraplay/sim/cost"
	"paraplay/sim/units"
)

// Timeline is the complete record of one simulated run.
type Timeline struct {
	// Title names the run for people (the scenario's name).
	Title string `json:"title"`
	// Fidelity says how communication was simulated: "detailed" (every chunk
	// is a transfer on a link) or "analytic" (one span per collective).
	Fidelity string `json:"fidelity"`
	// GPUs lists the devices, indexed by GPU id.
	GPUs []GPU `json:"gpus"`
	// Switches lists the switches (NVSwitch, network switches, NICs' leaf
	// and spine switches). Their vertex ids follow the GPUs': switch i is
	// vertex len(GPUs)+i.
	Switches []Switch `json:"switches,omitempty"`
	// Links lists the directed links, indexed by link id.
	Links []Link `json:"links"`
	// Spans are the compute operations, sorted by start time then GPU. In
	// a mirrored timeline (Mirrors) only the simulated GPUs' spans are
	// here: read every span with AllSpans.
	Spans []Span `json:"spans"`
	// Mirrors, when not nil, says that only some GPUs were simulated and
	// that GPU g repeats the spans of GPU Mirrors[g] (itself when it was
	// simulated): see mirrors.go. The JSON and Chrome trace list every
	// span, so files never carry it.
	Mirrors []int `json:"-"`
	// Transfers are the messages, sorted by start time; messages that start
	// at the same instant keep the order in which the simulator sent them.
	Transfers Transfers `json:"transfers"`
	// Collectives summarise each collective operation of the run.
	Collectives []Collective `json:"collectives"`
	// End is the instant the last operation finished: the iteration time.
	End units.Time `json:"end"`
	// Memory has one entry per GPU, Memory[i] for GPU i, in runs that
	// track memory (training, serving, split learning); nil otherwise.
	Memory []Memory `json:"memory,omitempty"`
	// Training holds what a training run's metrics need, nil otherwise.
	Training *Training `json:"training,omitempty"`
	// Iterations lists the iterations of a run of more than one, or of
	// one with faults; nil otherwise.
	Iterations []Iteration `json:"iterations,omitempty"`
	// States are the fault and recovery states of GPUs and links.
	States []State `json:"states,omitempty"`
	// Recovery lists the steps of the recovery from failures.
	Recovery []Recovery `json:"recovery,omitempty"`
	// Async records the iterations of a parameter-server or local-SGD run
	// (each worker's version lag), nil otherwise.
	Async *Async `json:"async,omitempty"`
	// Split records the clients, compute nodes and rounds of a split or
	// federated learning run, nil otherwise.
	Split *Split `json:"split,omitempty"`
	// RLHF records a reinforcement-learning run (placement, pools, rollout
	// queue, policy versions), nil otherwise.
	RLHF *RLHF `json:"rlhf,omitempty"`
	// Inference records a serving run (requests, KV cache, bubbles by
	// kind), nil otherwise.
	Inference *Inference `json:"inference,omitempty"`
	// Extra holds the records of strategies outside the built-in ones,
	// keyed by a name that prefixes their errors and keys their reports
	// in Summary.Extra.
	Extra map[string]Record `json:"extra,omitempty"`
	// Events counts the events the simulator's engine fired to make the
	// run (0 for an analytic one): what the work budget (package budget)
	// bounds, so not part of the record people read.
	Events uint64 `json:"-"`
}

// Memory is one GPU's memory over the run: model states that stay for the
// whole iteration, and activations that come and go with microbatches.
type Memory struct {
	// GPU is the GPU id.
	GPU int `json:"gpu"`
	// Capacity is the GPU's HBM size.
	Capacity units.Bytes `json:"capacity"`
	// Parameters, Gradients and OptimizerStates are the model states this
	// GPU holds (ZeRO's accounting); Buffers are communication buffers.
	Parameters      units.Bytes `json:"parameters"`
	Gradients       units.Bytes `json:"gradients"`
	OptimizerStates units.Bytes `json:"optimizer_states"`
	Buffers         units.Bytes `json:"buffers"`
	// Reserve is what the process holds beside the model: the CUDA
	// context, the math libraries' workspaces, the communication library's
	// buffers and the allocator's segments (zero where a strategy does not
	// model it).
	Reserve Reserve `json:"reserve,omitzero"`
	// Activations is the activation memory over time, piecewise constant:
	// each point holds from its At until the next.
	Activations []MemoryPoint `json:"activations"`
	// KVCache is the key/value cache of a serving run over time,
	// piecewise constant like Activations; nil for training runs.
	KVCache []MemoryPoint `json:"kv_cache,omitempty"`
	// Peak is the largest total (states + buffers + activations + KV cache).
	Peak units.Bytes `json:"peak"`
	// PeakInFlight is the microbatches' activations held at the peak, in
	// stage-equivalents (a model chunk counts 1/v).
	PeakInFlight float64 `json:"peak_inflight"`
}

// MemoryPoint is the activation memory from instant At on.
type MemoryPoint struct {
	// At is when the value starts to hold.
	At units.Time `json:"at"`
	// Bytes is the activation memory.
	Bytes units.Bytes `json:"bytes"`
	// InFlight is the stage-equivalents of microbatches held.
	InFlight float64 `json:"inflight"`
}

// Reserve is the device memory a process holds beside its tensors, by
// part; each part's figure and source are in the strategy that fills it in
// (sim/hw and sim/training reserve.go for training).
type Reserve struct {
	// Context is the CUDA context with the framework's kernels loaded.
	Context units.Bytes `json:"context"`
	// Workspaces are the cuBLAS and cuBLASLt workspaces.
	Workspaces units.Bytes `json:"workspaces"`
	// Communicators are the communication library's buffers, over the
	// process's communicators.
	Communicators units.Bytes `json:"communicators"`
	// Allocator is the caching allocator's segments the tensors cannot fill.
	Allocator units.Bytes `json:"allocator"`
}

// Total is the sum of the parts.
func (r Reserve) Total() units.Bytes { return r.Context + r.Workspaces + r.Communicators + r.Allocator }

// Static is the memory that stays for the whole iteration.
func (m *Memory) Static() units.Bytes {
	return m.Parameters + m.Gradients + m.OptimizerStates + m.Buffers + m.Reserve.Total()
}

// At returns the total memory at instant t.
func (m *Memory) At(t units.Time) units.Bytes {
	return m.Static() + valueAt(m.Activations, t) + valueAt(m.KVCache, t)
}

// KVAt returns the key/value cache at instant t.
func (m *Memory) KVAt(t units.Time) units.Bytes { return valueAt(m.KVCache, t) }

// KVAtPeak is the key/value cache at the first instant the total reaches
// Peak (its last value when no instant does).
func (m *Memory) KVAtPeak() units.Bytes {
	for _, p := range m.Activations {
		if m.At(p.At) == m.Peak {
			return m.KVAt(p.At)
		}
	}
	for _, p := range m.KVCache {
		if m.At(p.At) == m.Peak {
			return p.Bytes
		}
	}
	return valueAt(m.KVCache, 1<<62)
}

// valueAt is the bytes of a piecewise-constant series at t (0 before it).
func valueAt(series []MemoryPoint, t units.Time) units.Bytes {
	var a units.Bytes
	for _, p := range series {
		if p.At > t {
			break
		}
		a = p.Bytes
	}
	return a
}

// OOM reports whether the peak exceeds the GPU's memory.
func (m *Memory) OOM() bool { return m.Capacity > 0 && m.Peak > m.Capacity }

// NearFraction is where the warning zone below the HBM limit starts.
// Past it a run that fits on paper may still fail: the caching
// allocator's fragmentation is workload-dependent and large (GMLake, Guo
// et al. ASPLOS 2024, measured 15% on average and up to 33% over eight
// LLMs on A100-80GB), so the last tenth of HBM is not a safe margin.
const NearFraction = 0.9

// NearOOM reports whether the peak is in the warning zone: above
// NearFraction of the GPU's memory and still within it.
func (m *Memory) NearOOM() bool { return NearOOM(m.Peak, m.Capacity) }

// NearOOM reports whether peak is above NearFraction of capacity and
// within it (false without a capacity).
func NearOOM(peak, capacity units.Bytes) bool {
	return capacity > 0 && peak <= capacity && float64(peak) > NearFraction*float64(capacity)
}

// Training is what a training run's summary needs beyond the spans.
type Training struct {
	// Tokens is the number of tokens the iteration trains on.
	Tokens float64 `json:"tokens"`
	// ModelFLOPs is the model FLOPs of the iteration (no recomputation).
	ModelFLOPs float64 `json:"model_flops"`
	// HardwareFLOPs also counts recomputed FLOPs.
	HardwareFLOPs float64 `json:"hardware_flops"`
	// PeakFLOPS is one GPU's peak dense FLOP/s (0 for synthetic models).
	PeakFLOPS float64 `json:"peak_flops"`
	// Schedule names the pipeline schedule.
	Schedule string `json:"schedule"`
	// Chunks is v, the model chunks per pipeline device.
	Chunks int `json:"chunks"`
	// Warnings are valid but suspicious choices of the plan.
	Warnings []string `json:"warnings,omitempty"`
	// Cost, when the scenario sets a token budget, is what Summarize
	// prices the run with (Summary.Estimate); nil otherwise. Not in the
	// timeline's JSON: the summary carries the result.
	Cost *CostBasis `json:"-"`
}

// CostBasis is a training run's token budget, its cost settings and each
// GPU's rating (package cost).
type CostBasis struct {
	// Tokens is the budget, training.tokens.
	Tokens float64
	// Settings are the scenario's cost keys.
	Settings cost.Settings
	// Ratings has one entry per GPU, by ID; a run of one GPU type may
	// give one for all.
	Ratings []cost.Rating
}

// GPU is a device in the run.
type GPU struct {
	// ID is the index of the GPU in Timeline.GPUs.
	ID int `json:"id"`
	// Name is the label shown to people, e.g. "GPU 0".
	Name string `json:"name"`
	// Node is the index of the server the GPU sits in.
	Node int `json:"node"`
	// Role is empty for a GPU, "ps" for a parameter-server host (an
	// endpoint that moves bytes but computes nothing), "client" for a
	// client device of split or federated learning (a phone, laptop or
	// edge board), "compute" for a compute node holding part of a
	// split model's server side, and "cpu" for a serving run's CPU lane
	// (host-side sampling).
	Role string `json:"role,omitempty"`
}

// Switch is a vertex of the network that is not a GPU.
type Switch struct {
	// ID is the switch's vertex id: len(Timeline.GPUs) + its index.
	ID int `json:"id"`
	// Name labels the switch for people, e.g. "NVSwitch 0".
	Name string `json:"name"`
	// Kind says what it is, e.g. "nvswitch", "leaf", "spine", "wan".
	Kind string `json:"kind"`
	// Node is the server the switch sits in, or -1 for the network outside.
	Node int `json:"node"`
}

// Link is a directed connection between two vertices (GPUs or switches).
type Link struct {
	// ID is the index of the link in Timeline.Links.
	ID int `json:"id"`
	// From and To are vertex ids: a GPU id, or a switch's ID.
	From int `json:"from"`
	To   int `json:"to"`
	// Bandwidth is the link's rate in bytes per second.
	Bandwidth units.Bandwidth `json:"bandwidth"`
	// Latency is the per-message cost α.
	Latency units.Time `json:"latency"`
}

// Kind says what a compute span does. The scene colours GPUs by it.
type Kind string

// The kinds of span on a GPU's compute stream.
const (
	// Forward is a forward pass.
	Forward Kind = "forward"
	// Backward is a full backward pass, or the backward for the input
	// (B) when the schedule splits it.
	Backward Kind = "backward"
	// BackwardWeight is the backward for the weights (W) of a split backward.
	BackwardWeight Kind = "backward-weight"
	// Optimizer is the optimizer step.
	Optimizer Kind = "optimizer"
	// TPComm is the tensor-parallel collectives of an op (Megatron's two
	// all-reduces per layer and pass), which block the compute stream.
	TPComm Kind = "tp-comm"
	// CPComm is the part of context parallelism's K/V exchange that
	// attention compute does not hide.
	CPComm Kind = "cp-comm"
	// EPComm is expert parallelism's all-to-alls around the expert layers.
	EPComm Kind = "ep-comm"
	// Compress is compressing a gradient before it is sent, or
	// decompressing a model after it arrives.
	Compress Kind = "compress"
)

// IsCommunication reports whether spans of kind k are communication that
// blocks compute rather than compute.
func (k Kind) IsCommunication() bool { return k == TPComm || k == CPComm || k == EPComm }

// Span is one compute operation on one GPU's compute stream.
type Span struct {
	// GPU is the id of the GPU that executed the span.
	GPU int `json:"gpu"`
	// Kind says what the span computes.
	Kind Kind `json:"kind"`
	// Microbatch numbers the microbatch the span belongs to (0 when there is one).
	Microbatch int `json:"microbatch"`
	// Stage is the model (pipeline) stage the span runs, 0 without a pipeline.
	Stage int `json:"stage"`
	// Iteration is the index of the training iteration (Timeline.Iterations)
	// the span belongs to, 0 in a single-iteration run.
	Iteration int `json:"iteration,omitempty"`
	// Label is the text shown for the span, e.g. "F0".
	Label string `json:"label"`
	// Start and End bound the span; End > Start.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}

// Transfer is one message from one GPU to another over a path of links.
type Transfer struct {
	// Path lists the ids of the links the message crossed, from Src to Dst.
	Path []int `json:"path"`
	// Src and Dst are the GPU ids at the two ends of the path.
	Src int `json:"src"`
	Dst int `json:"dst"`
	// Bytes is the message size.
	Bytes units.Bytes `json:"bytes"`
	// Collective is the index into Timeline.Collectives of the operation the
	// message belongs to, or -1 for a point-to-point message.
	Collective int `json:"collective"`
	// Step is the step of the collective's schedule.
	Step int `json:"step"`
	// Chunk is the index of the buffer chunk being moved.
	Chunk int `json:"chunk"`
	// Channel is the channel (NCCL's parallel ring or tree) of the
	// collective the message belongs to, 0..Collective.Channels−1; 0 in a
	// collective of one channel or a point-to-point message, −1 when the
	// message carries several channels' slices (collective.ChannelRing's
	// hops inside a node). The picture colours by it.
	Channel int8 `json:"channel,omitempty"`
	// Phase names the part of the algorithm, e.g. "reduce-scatter".
	Phase string `json:"phase"`
	// Start is when the message was sent; End when its last byte arrived.
	// End > Start. The message pays the latency of its path first, then
	// streams at the rates listed in Rates.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Rates is the sending rate over time: each entry holds from its At
	// until the next entry's At (the last until End). Before the first
	// entry the message is still in its latency and moves no bytes.
	// Bandwidth sharing shows up here: a message that shares a link gets a
	// lower rate.
	Rates []Rate `json:"rates"`
}

// Rate is a piece of a transfer's piecewise-constant sending rate.
type Rate struct {
	// At is when this rate starts.
	At units.Time `json:"at"`
	// BytesPerSecond is the rate; 0 means stalled.
	BytesPerSecond float64 `json:"bps"`
}

// Link is the first link of the message's path, or -1 if it has none.
func (x *Transfer) Link() int {
	if len(x.Path) == 0 {
		return -1
	}
	return x.Path[0]
}

// BytesAt is how many bytes of the message have been sent by instant t,
// integrating Rates; the result is clamped to [0, Bytes] and is Bytes at End.
func (x *Transfer) BytesAt(t units.Time) float64 {
	if t >= x.End {
		return float64(x.Bytes)
	}
	var sent float64
	for i, r := range x.Rates {
		if t <= r.At {
			break
		}
		until := t
		if i+1 < len(x.Rates) && x.Rates[i+1].At < until {
			until = x.Rates[i+1].At
		}
		sent += r.BytesPerSecond * (until - r.At).Seconds()
	}
	return min(max(sent, 0), float64(x.Bytes))
}

// Collective summarises one collective operation.
type Collective struct {
	// Name is the operation, e.g. collective.OpAllReduce (written
	// "all-reduce", its Label).
	Name collective.Op `json:"name"`
	// Algorithm is how it was carried out, e.g. "ring".
	Algorithm string `json:"algorithm"`
	// Protocol is the NCCL protocol it was priced with ("simple", "ll",
	// "ll128"), or empty for the catalog's links as they are, without
	// NCCL's protocol costs.
	Protocol string `json:"protocol,omitempty"`
	// Channels is the number of parallel rings or trees it ran on
	// (NCCL's nChannels); 0 means one.
	Channels int `json:"channels,omitempty"`
	// Ranks is the number of GPUs taking part.
	Ranks int `json:"ranks"`
	// Bytes is the buffer size S each rank contributes.
	Bytes units.Bytes `json:"bytes"`
	// GPUs lists the GPU id of each rank, in rank order.
	GPUs []int `json:"gpus"`
	// Purpose says what the collective is for in a training run: "dp"
	// (gradients), "zero" (ZeRO-3 parameters); empty for a lone collective.
	Purpose string `json:"purpose,omitempty"`
	// Start is when its first message started; End when its last one ended.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}
