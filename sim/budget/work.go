package budget

import (
	"fmt"
	"math"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
)

// Count is an upper bound on one kind of work, and what drives it.
type Count struct {
	// N is the bound.
	N float64
	// Why is the product of fields behind the largest part of N, as
	// people check it: "512 GPUs × 64 collective.chunks × 2·511 steps".
	Why string
	// Field is the scenario key a refusal names (the one to change).
	Field string
	// Fix says what to change to lower N: "lower collective.chunks or use
	// fidelity: analytic".
	Fix string
	// Unit, when set, names what is counted in a refusal instead of the
	// kind's own word ("phases" of a long run, counted as spans).
	Unit string
}

// Plus is c with d's bound added; the explanation stays with the larger.
func (c Count) Plus(d Count) Count {
	out := c
	if d.N > c.N {
		out = d
	}
	out.N = c.N + d.N
	return out
}

// Times is c repeated k times (k ≥ 1), k explained by why when non-empty.
func (c Count) Times(k float64, why string) Count {
	c.N *= k
	if why != "" && k != 1 {
		c.Why = why + " × " + c.Why
	}
	return c
}

// Work is the bound on one run of a scenario. Zero counts are allowed (an
// analytic run fires no events and sends no transfers).
type Work struct {
	// Events bounds the events the simulator's engine fires.
	Events Count
	// Transfers bounds the messages the timeline records.
	Transfers Count
	// Spans bounds the compute spans and the other ranges (fault states,
	// long-run phases) the timeline records.
	Spans Count
	// TraceBytes bounds the size of the run's Chrome trace.
	TraceBytes Count
	// Memory bounds the bytes the run allocates (Go's TotalAlloc over the
	// run, which is at least the run's peak heap).
	Memory Count
	// Refused, when set, is why the scenario cannot run at all, found
	// while bounding it (costs that would overflow the clock): a
	// *scenario.FieldError naming the field.
	Refused error
}

// Per-item costs that turn counts into bytes. They were measured on amd64
// with Go 1.26 over the testdata scenarios (largest ratio seen, rounded
// up): sim/run's TestWorkBounds holds the resulting bounds to the real
// trace sizes and allocations.
const (
	// SpanTraceBytes is a span's Chrome trace event, with its arguments
	// (measured 170–260 B).
	SpanTraceBytes = 320
	// TransferTraceBytes is a transfer's trace event (measured ≈ 380 B).
	TransferTraceBytes = 480
	// GPUTraceBytes is a GPU's metadata rows and counter series in the
	// trace.
	GPUTraceBytes = 2048
	// SpanBytes is what a span costs to record: the timeline's span and
	// memory points, in slices grown by doubling (measured ≈ 275 B on a
	// 2.6 M-span run).
	SpanBytes = 320
	// OpBytes is a task-graph op: the op, its edges, its label and the
	// strategy's tables (measured ≤ 900 B).
	OpBytes = 1536
	// TransferBytes is a transfer's op, message, fabric flow and record
	// (measured ≈ 950 B; more on training runs that gather their
	// iterations, where each message copied into the whole run's list
	// brings its path into the table and a copy of its rates besides its
	// 32-byte record and 40-byte loose fields: at 1,024 two of
	// TestWorkBoundsRandom's training runs were 1–2% over).
	TransferBytes = 1088
	// EventBytes is an engine event in the heap (40 B, grown by doubling).
	EventBytes = 64
	// GPUBytes is a GPU's topology, routes, streams and memory track.
	GPUBytes = 4 << 10
	// BaseBytes is a run's fixed cost: the topology's maps, the
	// timeline's header (catalog look-ups allocate nothing since the model
	// catalog is built once). Measured: a whole data-parallel run on one
	// GPU allocates 10.6 KB (TotalAlloc over Simulate, warm); 48 KiB
	// when each model look-up rebuilt the catalog.
	BaseBytes = 32 << 10
)

// Items is how many spans and transfers a run makes, with the number of
// GPUs it spans and how many times its graph is built (an imperfect
// training run plays one per iteration): what Of needs.
type Items struct {
	Spans, Transfers Count
	// Ops bounds the task graph's ops other than transfers; zero means
	// one per span (a group op on several GPUs makes one span on each).
	Ops float64
	// Events bounds the engine events; zero means EventsPerItem × items.
	Events Count
	// GPUs is the number of GPUs of the topology.
	GPUs int
	// Ports is the topology's cable ports beyond one per GPU: a mesh
	// node's peer cables (MeshPorts), each with its own queue and routes,
	// bounded like a GPU.
	Ports int
	// Graphs is how many times a topology and task graph are built (≥ 1).
	Graphs float64
}

// EventsPerItem bounds the engine events of a span or a transfer: a span's
// start and finish; a message's latency, rate changes and arrival
// (measured up to 4.3 on a ring that shares its links).
const EventsPerItem = 6

// Of is the Work of a run that makes the items in it:
//
//	events  = it.Events, or EventsPerItem·(spans + transfers)
//	trace   = SpanTraceBytes·spans + TransferTraceBytes·transfers + GPUTraceBytes·GPUs
//	memory  = SpanBytes·spans + OpBytes·ops + TransferBytes·transfers
//	          + EventBytes·events + (GPUBytes·(GPUs + ports) + BaseBytes)·graphs
func Of(it Items) Work {
	graphs := max(it.Graphs, 1)
	ev := it.Events
	if ev.N == 0 {
		ev = it.Spans.Plus(it.Transfers).Times(EventsPerItem, "")
		ev.Why = fmt.Sprintf("%d × (%s)", EventsPerItem, ev.Why)
	}
	gpus, ports, ops := float64(it.GPUs), float64(it.Ports), it.Ops
	if ops == 0 {
		ops = it.Spans.N
	}
	trace := Count{N: SpanTraceBytes*it.Spans.N + TransferTraceBytes*it.Transfers.N + GPUTraceBytes*gpus}
	mem := Count{N: SpanBytes*it.Spans.N + OpBytes*ops + TransferBytes*it.Transfers.N + EventBytes*ev.N + (GPUBytes*(gpus+ports)+BaseBytes)*graphs}
	big := it.Spans
	if TransferBytes*it.Transfers.N > (SpanBytes+OpBytes)*it.Spans.N {
		big = it.Transfers
	}
	trace.Why, trace.Field, trace.Fix = big.Why, big.Field, big.Fix
	mem.Why, mem.Field, mem.Fix = big.Why, big.Field, big.Fix
	return Work{Events: ev, Transfers: it.Transfers, Spans: it.Spans, TraceBytes: trace, Memory: mem}
}

// MeshPorts is the Ports of s's cluster: on a server whose GPUs are
// joined pairwise with no switch (AMD's Infinity Fabric), every GPU has
// one cable port per peer, where a switched server has one port a GPU.
// Zero for ideal links, switched servers and unknown presets (validation
// names those).
func MeshPorts(s *scenario.Scenario) int {
	if s.Cluster.GPU == "" {
		return 0
	}
	link := s.Cluster.Intra
	if link == "" {
		g, err := hw.LookupGPU(s.Cluster.GPU)
		if err != nil {
			return 0
		}
		link = g.Link
	}
	l, err := hw.LookupLink(link)
	if err != nil || l.MeshPeers == 0 {
		return 0
	}
	return s.NumGPUs() * l.MeshPeers
}

// Plus is the work of two runs one after the other.
func (w Work) Plus(v Work) Work {
	out := Work{Events: w.Events.Plus(v.Events), Transfers: w.Transfers.Plus(v.Transfers), Spans: w.Spans.Plus(v.Spans),
		TraceBytes: w.TraceBytes.Plus(v.TraceBytes), Memory: w.Memory.Plus(v.Memory), Refused: w.Refused}
	if out.Refused == nil {
		out.Refused = v.Refused
	}
	return out
}

// finite reports whether every bound is a finite number ≥ 0.
func (w Work) finite() bool {
	for _, c := range []Count{w.Events, w.Transfers, w.Spans, w.TraceBytes, w.Memory} {
		if !(c.N >= 0 && !math.IsInf(c.N, 0)) {
			return false
		}
	}
	return true
}
