package collective

import (
	"math"

	"paraplay/sim/units"
)

// MaxChannels is the most parallel rings a collective runs on. NCCL's own
// ceiling is MAXCHANNELS = 32 (64 in recent releases); 64 also keeps a typo
// from multiplying a schedule's size without bound.
const MaxChannels = 64

// Range is the bytes [Offset, Offset+Bytes) of a schedule's buffer.
type Range struct {
	Offset, Bytes units.Bytes
}

// ChannelRing is a ring collective (all_reduce, reduce_scatter or
// all_gather) run on channels parallel rings, as NCCL runs its nChannels
// rings: every rank's shard of the buffer is cut into channels slices and
// channel c carries slice c of every shard, so each ring moves S/channels.
// The ranks are nodes × perNode, rank r on node r / perNode.
//
// Channel c's ring enters node k at local GPU (c−k) mod g (g = perNode),
// visits the node's GPUs in increasing local order (mod g) and leaves from
// the GPU just before its entry, whose local index is the next node's
// entry: on a rail-optimized network the inter-node hop stays on one rail,
// and over g channels every GPU sends one channel out of the node through
// its own NIC (one channel per NIC, NCCL's default on DGX-class servers).
// Only the hop that closes the ring changes rail. On one node every
// channel uses the same NVLink hops.
//
// Each ring runs the algorithm of Ring, ReduceScatterRing or AllGatherRing
// (Patarasuk & Yuan 2009) on its slices, pieces per step as in
// RingPipelined. The slices that leave one rank for the same neighbour in
// the same step travel as one message (Schedule.Pieces): they cross the
// same links at the same time anyway, and NCCL's channels advance in lock
// step when nothing else contends. So a rank sends at most two messages a
// step — one over NVLink, one through its NIC — and a 1,024-GPU schedule
// stays twice, not channels times, the size of one ring. channels ≤ 1 is
// the single ring over the ranks in order (Ring and friends).
func ChannelRing(op Op, nodes, perNode int, s units.Bytes, pieces, channels int) Schedule {
	return channelRing(op, nodes, perNode, s, pieces, channels, false)
}

// channelRing is ChannelRing, with each node a mesh of direct cables when
// mesh is set (MeshChannelRing).
func channelRing(op Op, nodes, perNode int, s units.Bytes, pieces, channels int, mesh bool) Schedule {
	n := nodes * perNode
	if channels <= 1 || nodes < 1 || perNode < 1 {
		switch op {
		case OpReduceScatter:
			return ReduceScatterRing(n, s)
		case OpAllGather:
			return AllGatherRing(n, s)
		}
		return RingPipelined(n, s, pieces)
	}
	sch := Schedule{Op: op, Algorithm: "ring", Ranks: n, Bytes: s, Channels: channels}
	if n < 2 || s <= 0 {
		return sch
	}
	cb := newChannelBuilder(&sch, nodes, perNode, max(pieces, 1), channels, mesh && meshLayout(nodes, perNode))
	rs, ag := ringPhases(op, n)
	for step := 0; step < rs+ag; step++ {
		cb.step(step, rs)
	}
	return sch
}

// ringPhases is the number of reduce-scatter and all-gather steps of a
// ring op on n ranks.
func ringPhases(op Op, n int) (rs, ag int) {
	switch op {
	case OpReduceScatter:
		return n - 1, 0
	case OpAllGather:
		return 0, n - 1
	}
	return n - 1, n - 1
}

// channelOrder is channel c's ring: the ranks in the order it visits them.
func channelOrder(nodes, perNode, c int) []int {
	order := make([]int, 0, nodes*perNode)
	for k := range nodes {
		entry := ((c-k)%perNode + perNode) % perNode
		for j := range perNode {
			order = append(order, k*perNode+(entry+j)%perNode)
		}
	}
	return order
}

// ChannelLoads is how many channels' slices the busiest GPU sends per ring
// step over NVLink (intra) and through its NIC (inter) under ChannelRing's
// layout: over g channels every GPU sends one out of the node and the
// others to its neighbour; with more channels than GPUs per node, some
// NICs carry two. One node sends everything over NVLink.
func ChannelLoads(nodes, perNode, channels int) (intra, inter int) {
	c := max(channels, 1)
	if nodes < 2 {
		return c, 0
	}
	if perNode < 2 {
		return 0, c
	}
	// GPU l of node k is the exit of the channels ≡ l+k+1 (mod g).
	most := (c + perNode - 1) / perNode
	least := c / perNode
	return c - least, most
}

// ChannelRingTime is the closed-form time of ChannelRing on separate
// intra-node (α_intra, B_intra) and inter-node (α_inter, B_inter) links, as
// on a cluster whose GPUs each have an NVLink port and a NIC. Every ring
// step moves one slice of c = S/(n·channels) bytes per channel; the
// busiest GPU sends L_intra of them over NVLink and L_inter through its
// NIC (ChannelLoads), at the same time, in k pieces each. A ring advances
// at the pace of its slowest hop (each step waits for the previous step's
// slice), so with steps = 2(n−1) for all-reduce, n−1 for the others,
//
//	steps · max(k·α_intra + L_intra·c/B_intra, k·α_inter + L_inter·c/B_inter)
//
// (γ not charged). With g channels, L_inter = 1 and the bandwidth term is
// steps·S/(n·g·B_inter): g NICs in parallel, the reason NCCL's bus bandwidth
// across DGX nodes is g times one NIC's.
func ChannelRingTime(op string, nodes, perNode, channels, pieces int, s units.Bytes, intraAlpha units.Time, intraBW units.Bandwidth, interAlpha units.Time, interBW units.Bandwidth) float64 {
	n := nodes * perNode
	if n < 2 {
		return 0
	}
	rs, ag := ringPhases(Op(op), n)
	k := float64(max(pieces, 1))
	c := max(channels, 1)
	slice := float64(s) / float64(n*c)
	li, le := ChannelLoads(nodes, perNode, c)
	step := 0.0
	if li > 0 {
		step = k*intraAlpha.Seconds() + float64(li)*slice/float64(intraBW)
	}
	if le > 0 {
		step = math.Max(step, k*interAlpha.Seconds()+float64(le)*slice/float64(interBW))
	}
	return float64(rs+ag) * step
}

// channelPortMessages is how many messages the busiest rank sends per
// piece step of ChannelRing: one per distinct neighbour (its NVLink
// neighbour and its NIC's), the count the one-port model of Time pays α
// for.
func channelPortMessages(nodes, perNode, channels int) int {
	if channels > 1 && nodes > 1 && perNode > 1 {
		return 2
	}
	return 1
}
