package collective

import (
	"strings"

	"paraplay/sim/units"
)

// Phase names the part of an algorithm a transfer belongs to; the scene
// colours transfers by it and the timeline records its name (String). It
// is a small number, not a string, so that a schedule of millions of
// transfers holds no pointer for the garbage collector to follow.
type Phase uint8

// The phases. The zero Phase is unnamed ("").
const (
	PhaseReduceScatter Phase = iota + 1
	PhaseAllGather
	// PhaseReduce sends partial sums towards a root (trees, reduce).
	PhaseReduce
	// PhaseBroadcast copies data away from a root (trees, broadcast).
	PhaseBroadcast
	// PhaseAllReduce exchanges whole buffers that are summed on arrival
	// (recursive doubling).
	PhaseAllReduce
	// PhaseAllToAll sends each peer its own piece.
	PhaseAllToAll
	// PhaseSend is a plain point-to-point message.
	PhaseSend
	// PhaseBarrier is a dissemination-barrier notification.
	PhaseBarrier
	// PhasePush and PhasePull are the two halves of a parameter-server
	// round: gradients to the servers, reduced values back.
	PhasePush
	PhasePull
	// PhasePipeline is a message between pipeline stages ("pp").
	PhasePipeline
	// PhaseState moves training state to a new placement.
	PhaseState
	// PhaseCyclic is cyclic data parallelism's relay.
	PhaseCyclic
	// PhaseToken is a token passed round a ring.
	PhaseToken
	// PhaseActivations, PhaseGradients, PhaseModel and PhaseWeights are
	// split learning's messages.
	PhaseActivations
	PhaseGradients
	PhaseModel
	PhaseWeights
	// PhaseCRelax and PhaseCoarse are layer-parallel multigrid's
	// messages (package mgrit): the state a GPU's C-relaxation waits for,
	// and the coarse sweep's state passed on to the next GPU.
	PhaseCRelax
	PhaseCoarse
	// PhaseForward, PhaseBackward, PhaseOffload and PhaseReload are
	// SPPO's (package sppo): a stage's activations forward and gradients
	// backward, and activations offloaded to host memory and reloaded.
	PhaseForward
	PhaseBackward
	PhaseOffload
	PhaseReload
)

// phaseNames are the phases' names, as the timeline records them.
var phaseNames = [...]string{"", "reduce-scatter", "all-gather", "reduce", "broadcast", "all-reduce", "all-to-all",
	"send", "barrier", "push", "pull", "pp", "state", "cyclic", "token", "activations", "gradients", "model", "weights",
	"C-relax", "coarse", "forward", "backward", "offload", "reload"}

// String is the phase's name: "reduce-scatter".
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Op names a collective operation, spelled as a scenario spells it
// (all_reduce) everywhere in the program: in schedules, the timeline and
// the summary. People read its Label ("all-reduce"), which is also how
// the text summary, the JSON and the traces write it.
type Op string

// The operations, as Schedule.Op and timeline.Collective.Name hold them.
const (
	OpAllReduce     Op = "all_reduce"
	OpReduceScatter Op = "reduce_scatter"
	OpAllGather     Op = "all_gather"
	OpBroadcast     Op = "broadcast"
	OpReduce        Op = "reduce"
	OpAllToAll      Op = "all_to_all"
	OpSendRecv      Op = "sendrecv"
	OpBarrier       Op = "barrier"
	// OpSend is a point-to-point message: of a serving run's pipeline, or
	// of cyclic data parallelism's gradient relay.
	OpSend Op = "send"
	// OpPipelineSend is a point-to-point message between a training run's
	// pipeline stages ("send-recv").
	OpPipelineSend Op = "send_recv"
	// OpPushPull is a parameter server's pulls and pushes ("push-pull").
	OpPushPull Op = "push_pull"
)

// Label is how people write an operation or algorithm: hyphens for the
// underscores ("all-reduce", "halving-doubling").
func Label(name string) string { return strings.ReplaceAll(name, "_", "-") }

// Label is how people write the operation: "all-reduce".
func (o Op) Label() string { return Label(string(o)) }

// String is the Label, so that printing an Op writes what people read.
func (o Op) String() string { return o.Label() }

// MarshalText writes the Label: JSON and traces name operations as
// people do.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.Label()), nil }

// UnmarshalText reads an operation in either spelling.
func (o *Op) UnmarshalText(b []byte) error {
	*o = Op(strings.ReplaceAll(string(b), "-", "_"))
	return nil
}

// Transfer is one message of a schedule.
//
// The bytes a transfer carries are the range [Offset, Offset+Bytes) of the
// logical buffer of Schedule.Bytes bytes that every rank holds a copy of. For
// all-to-all the range is in the sender's send buffer, and the receiver
// stores it in its receive buffer in the slot of the sender.
type Transfer struct {
	// Step is the round the message belongs to, from 0. It orders the
	// schedule for reading and drawing; the execution order comes from
	// After alone.
	Step int
	// Src and Dst are ranks, 0..Ranks-1.
	Src, Dst int
	// Chunk is the index of the buffer chunk the message carries (for
	// messages that carry several consecutive chunks, the first of them).
	// Each constructor documents how it numbers chunks; Offset and Bytes
	// are the authoritative byte range.
	Chunk int
	// Offset is where the carried bytes start in the buffer.
	Offset units.Bytes
	// Bytes is the size of the message.
	Bytes units.Bytes
	// Phase names the part of the algorithm.
	Phase Phase
	// Reduce is true when the receiver adds the incoming data into its own
	// copy of the range (reduce phases), false when it stores or forwards
	// it unchanged. ParaPlay does not charge time for the addition (γ = 0).
	Reduce bool
	// Channel is the channel (NCCL's parallel ring or tree, 0..Channels−1)
	// the message belongs to: 0 in a schedule of one channel, −1 for a
	// message that carries several channels' slices at once (Ranges).
	// It changes nothing in the run; the picture colours by it.
	Channel int8
	// ranges, when not empty, is the window on Schedule.Ranges of the
	// disjoint byte ranges the message carries, one per channel
	// (ChannelRing sends the slices bound for one neighbour in one step as
	// one message): their sizes add up to Bytes and Offset is the first
	// one's. Empty means [Offset, Offset+Bytes). Read it with
	// Schedule.Pieces, set it with Schedule.Add.
	ranges window
	// after is the window on Schedule.Deps of the indices (into
	// Schedule.Transfers) of the transfers that must have arrived before
	// this one can be sent: the data it forwards or reduces. Read it with
	// Schedule.After, set it with Schedule.Add or SetAfter.
	after window
}

// window is a part of one of a schedule's pools: n elements from at. A
// transfer keeps windows, not slices, so that a schedule of millions of
// transfers holds no pointer for the garbage collector to follow.
type window struct{ at, n int32 }

// Schedule is a collective operation written out as data.
type Schedule struct {
	// Op is the operation (one of the Op constants).
	Op Op
	// Algorithm is how it is done, e.g. "ring".
	Algorithm string
	// Ranks is the number of participants.
	Ranks int
	// Bytes is S, the size of the buffer the transfers' ranges refer to:
	// the buffer each rank contributes (all-reduce, reduce-scatter,
	// reduce), the gathered result (all-gather), the data the root sends
	// (broadcast), the bytes one rank sends in total (all-to-all), or the
	// notification size (barrier).
	Bytes units.Bytes
	// Root is the rank that owns the data (broadcast) or receives the sum
	// (reduce); 0 for every other operation.
	Root int
	// Servers is the number of parameter servers, ranks 0..Servers-1,
	// which hold no data of their own; 0 for every other algorithm.
	Servers int
	// Channels is the number of parallel rings (ChannelRing); 0 for a
	// schedule of one.
	Channels int
	// Steps is the number of rounds.
	Steps int
	// Transfers lists every message in step order.
	Transfers []Transfer
	// Deps and Ranges are the pools of the transfers' dependencies and
	// byte ranges (After, Pieces): one array each, not one per transfer.
	Deps   []int32
	Ranges []Range
}

// Add appends t to the schedule, waiting for the transfers after and
// carrying ranges (nil or one range: [t.Offset, t.Offset+t.Bytes)), and
// returns its index. t's own windows are ignored.
func (s *Schedule) Add(t Transfer, after []int, ranges []Range) int {
	t.after, t.ranges = window{}, window{}
	if len(ranges) > 1 || (len(ranges) == 1 && ranges[0] != Range{t.Offset, t.Bytes}) {
		t.ranges = window{int32(len(s.Ranges)), int32(len(ranges))}
		s.Ranges = append(s.Ranges, ranges...)
	}
	s.Transfers = append(s.Transfers, t)
	s.SetAfter(len(s.Transfers)-1, after)
	return len(s.Transfers) - 1
}

// SetAfter makes transfer i wait for the transfers after instead of
// those it waited for.
func (s *Schedule) SetAfter(i int, after []int) {
	t := &s.Transfers[i]
	t.after = window{}
	if len(after) > 0 {
		t.after = window{int32(len(s.Deps)), int32(len(after))}
		for _, d := range after {
			s.Deps = append(s.Deps, int32(d))
		}
	}
}

// After is the transfers transfer i waits for, in the schedule's pool:
// read it, never change it.
func (s *Schedule) After(i int) []int32 {
	w := s.Transfers[i].after
	return s.Deps[w.at : w.at+w.n : w.at+w.n]
}

// Pieces is the byte ranges transfer i carries: its ranges, or the one
// range [Offset, Offset+Bytes).
func (s *Schedule) Pieces(i int) []Range {
	t := &s.Transfers[i]
	if t.ranges.n == 0 {
		return []Range{{t.Offset, t.Bytes}}
	}
	return s.Ranges[t.ranges.at : t.ranges.at+t.ranges.n : t.ranges.at+t.ranges.n]
}

// ChunkBytes splits S bytes into n chunks as evenly as whole bytes allow:
// the first S mod n chunks get one byte more.
func ChunkBytes(s units.Bytes, n, chunk int) units.Bytes {
	size := s / units.Bytes(n)
	if units.Bytes(chunk) < s%units.Bytes(n) {
		size++
	}
	return size
}

// ChunkOffset is where chunk starts when S bytes are split into n chunks as
// ChunkBytes does: the sum of the sizes of the chunks before it.
func ChunkOffset(s units.Bytes, n, chunk int) units.Bytes {
	c := units.Bytes(chunk)
	return c*(s/units.Bytes(n)) + min(c, s%units.Bytes(n))
}
