package collective

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/units"
)

// Phase names. A phase says what a transfer does for the algorithm; the scene
// colours transfers by it and the timeline records it.
const (
	PhaseReduceScatter = "reduce-scatter"
	PhaseAllGather     = "all-gather"
	// PhaseReduce sends partial sums towards a root (trees, reduce).
	PhaseReduce = "reduce"
	// PhaseBroadcast copies data away from a root (trees, broadcast).
	PhaseBroadcast = "broadcast"
	// PhaseAllReduce exchanges whole buffers that are summed on arrival
	// (recursive doubling).
	PhaseAllReduce = "all-reduce"
	// PhaseAllToAll sends each peer its own piece.
	PhaseAllToAll = "all-to-all"
	// PhaseSend is a plain point-to-point message.
	PhaseSend = "send"
	// PhaseBarrier is a dissemination-barrier notification.
	PhaseBarrier = "barrier"
	// PhasePush and PhasePull are the two halves of a parameter-server
	// round: gradients to the servers, reduced values back.
	PhasePush = "push"
	PhasePull = "pull"
)

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
	// OpSend is a point-to-point message of a serving run's pipeline.
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
	Phase string
	// Reduce is true when the receiver adds the incoming data into its own
	// copy of the range (reduce phases), false when it stores or forwards
	// it unchanged. ParaPlay does not charge time for the addition (γ = 0).
	Reduce bool
	// Channel is the channel (NCCL's parallel ring or tree, 0..Channels−1)
	// the message belongs to: 0 in a schedule of one channel, −1 for a
	// message that carries several channels' slices at once (Ranges).
	// It changes nothing in the run; the picture colours by it.
	Channel int8
	// Ranges, when set, are the disjoint byte ranges the message carries,
	// one per channel (ChannelRing sends the slices bound for one
	// neighbour in one step as one message): their sizes add up to Bytes
	// and Offset is the first one's. Nil means [Offset, Offset+Bytes).
	Ranges []Range
	// After lists the indices (into Schedule.Transfers) of the transfers
	// that must have arrived before this one can be sent: the data it
	// forwards or reduces.
	After []int
}

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
}

// Pieces is the byte ranges the transfer carries: Ranges, or the one
// range [Offset, Offset+Bytes).
func (t *Transfer) Pieces() []Range {
	if t.Ranges != nil {
		return t.Ranges
	}
	return []Range{{t.Offset, t.Bytes}}
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

// Validate checks that ranks, steps, byte ranges and dependencies are
// consistent: every transfer moves a non-empty range of the buffer between
// two different ranks, and every dependency points to a transfer of an
// earlier step, so that the dependency graph has no cycle.
func (s *Schedule) Validate() error {
	var errs []error
	if s.Ranks < 1 {
		errs = append(errs, fmt.Errorf("schedule has %d ranks, want at least 1", s.Ranks))
	}
	if s.Root < 0 || s.Root >= max(s.Ranks, 1) {
		errs = append(errs, fmt.Errorf("root %d is not one of %d ranks", s.Root, s.Ranks))
	}
	if s.Servers < 0 || (s.Servers > 0 && s.Servers >= s.Ranks) {
		errs = append(errs, fmt.Errorf("%d servers among %d ranks leaves no worker", s.Servers, s.Ranks))
	}
	for i := range s.Transfers {
		t := &s.Transfers[i] // not a copy: millions of 120-byte records
		if t.Src < 0 || t.Src >= s.Ranks || t.Dst < 0 || t.Dst >= s.Ranks || t.Src == t.Dst {
			errs = append(errs, fmt.Errorf("transfer %d: %d→%d is not between two of %d ranks", i, t.Src, t.Dst, s.Ranks))
		}
		if t.Step < 0 || t.Step >= s.Steps {
			errs = append(errs, fmt.Errorf("transfer %d: step %d outside 0..%d", i, t.Step, s.Steps-1))
		}
		if t.Bytes <= 0 {
			errs = append(errs, fmt.Errorf("transfer %d: %d bytes", i, t.Bytes))
		}
		if t.Ranges == nil { // the one piece (Pieces), without making its list
			if t.Offset < 0 || t.Offset+t.Bytes > s.Bytes {
				errs = append(errs, fmt.Errorf("transfer %d: bytes [%d, %d) outside the %d-byte buffer", i, t.Offset, t.Offset+t.Bytes, s.Bytes))
			}
		} else {
			var sum units.Bytes
			for _, r := range t.Ranges {
				if r.Offset < 0 || r.Offset+r.Bytes > s.Bytes {
					errs = append(errs, fmt.Errorf("transfer %d: bytes [%d, %d) outside the %d-byte buffer", i, r.Offset, r.Offset+r.Bytes, s.Bytes))
				}
				sum += r.Bytes
			}
			if sum != t.Bytes || t.Ranges[0].Offset != t.Offset {
				errs = append(errs, fmt.Errorf("transfer %d: ranges of %d bytes from %d, but the message says %d from %d", i, sum, t.Ranges[0].Offset, t.Bytes, t.Offset))
			}
		}
		for _, d := range t.After {
			if d < 0 || d >= len(s.Transfers) || s.Transfers[d].Step >= t.Step {
				errs = append(errs, fmt.Errorf("transfer %d: waits for transfer %d, which is not an earlier step", i, d))
			}
		}
	}
	return errors.Join(errs...)
}
