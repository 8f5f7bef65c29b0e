package collective

import (
	"math"
	"slices"

	"paraplay/sim/units"
)

// AllToAllPXN is the all-to-all of NCCL's PXN ("PCI × NVLink", NCCL
// 2.12): a message for a GPU of another node first crosses NVLink into a
// buffer of the GPU of the sender's node that sits on the destination's
// rail, and leaves the node through that GPU's NIC, so on a
// rail-optimized network it reaches the destination's NIC on one rail,
// without crossing to another (NVIDIA Technical Blog, "Doubling all2all
// Performance with NVIDIA Collective Communication Library 2.12", 2022).
// ParaPlay's schedule also sends the node's blocks for one destination as
// one message. S is the bytes one rank sends in total, a block of S/n for
// each rank, on nodes of perNode ranks (rank r on node r / perNode, local
// r mod perNode); with one node or one rank a node it is
// AllToAllPairwise.
//
// With M nodes of g ranks, in round k = 1 … M−1 node A sends to node
// B = A+k (mod M): for d = 1 … g−1, local GPU i hands local GPU
// j = i+d (mod g) its block for GPU j of node B, over NVLink (one
// message per rank and sub-step, a permutation, as AllToAllPairwise);
// then GPU j sends node B's GPU j the g blocks for it — its own and the
// g−1 it was handed — as one message through its NIC, after them
// (Schedule.After; its Pieces are the origins' blocks, one per origin, in
// their send buffers). The node's own all-to-all, g−1 pairwise sub-steps,
// comes last. Every rank sends M(g−1) NVLink messages of S/n and M−1 NIC
// messages of g·S/n: the NIC carries what pairwise exchange sends it,
// (M−1)/M·S, in M−1 messages instead of n−g.
//
// With a port into the node and a NIC per rank, rounds pipeline: round
// k's gathers take G = (g−1)(α_intra + S/n/B_intra) each, one after the
// other on the NVLink port, and its NIC message E = α_inter +
// g·S/n/B_inter can start once they and round k−1's have: AllToAllPXNTime.
// With one port (an ideal switch) all the NVLink messages come first,
// M·G, then the NIC messages, (M−1)·E (Time).
func AllToAllPXN(nodes, perNode int, s units.Bytes) Schedule {
	n, g := nodes*perNode, perNode
	if nodes < 2 || g < 2 {
		return AllToAllPairwise(n, s)
	}
	sch := Schedule{Op: OpAllToAll, Algorithm: "pxn", Ranks: n, Bytes: s, Steps: n - 1}
	// send appends rank src's message to dst carrying copies of the block
	// for rank to (each origin's, in its own send buffer) after deps, and
	// returns its index, or −1 for an empty block.
	send := func(step, src, dst, to, copies int, deps []int) int {
		b := ChunkBytes(s, n, to)
		if b == 0 {
			return -1
		}
		t := Transfer{Step: step, Src: src, Dst: dst, Chunk: to, Offset: ChunkOffset(s, n, to), Bytes: units.Bytes(copies) * b,
			Phase: PhaseAllToAll}
		var ranges []Range
		if copies > 1 {
			ranges = slices.Repeat([]Range{{t.Offset, b}}, copies)
		}
		return sch.Add(t, deps, ranges)
	}
	into := make([][]int, n) // into[p]: this round's gathers into proxy p
	for k := 1; k <= nodes; k++ {
		for d := 1; d < g; d++ {
			for r := range n {
				a, j := r/g, (r%g+d)%g
				if i := send((k-1)*g+d-1, r, a*g+j, ((a+k)%nodes)*g+j, 1, nil); i >= 0 && k < nodes {
					into[a*g+j] = append(into[a*g+j], i)
				}
			}
		}
		for p := 0; p < n && k < nodes; p++ {
			send((k-1)*g+g-1, p, ((p/g+k)%nodes)*g+p%g, ((p/g+k)%nodes)*g+p%g, g, into[p])
			into[p] = nil
		}
	}
	return sch
}

// AllToAllPXNTime is AllToAllPXN's time with a port into the node
// (intra) and a NIC (inter) per rank, both full duplex: round k's NIC
// message can leave once round k's gathers are in (k·G) and round k−1's
// NIC message has gone, F_k = max(F_{k−1}, k·G) + E, and the node's own
// exchange ends the NVLink port's work at M·G, so
//
//	max(M·G, G + (M−1)·E, (M−1)·G + E)
//
// with G = (g−1)(α_intra + S/(n·B_intra)) and E = α_inter + g·S/(n·B_inter)
// (F_{M−1} = max over m of m·G + (M−m)·E, linear in m). It is 0 for a
// collective of one rank.
func AllToAllPXNTime(nodes, perNode int, s units.Bytes, intra, inter Link) float64 {
	n := nodes * perNode
	if n < 2 {
		return 0
	}
	if nodes < 2 || perNode < 2 {
		l := intra
		if perNode < 2 {
			l = inter
		}
		return float64(n-1) * (l.Alpha.Seconds() + float64(s)/float64(n)/float64(l.Bandwidth))
	}
	M, g, b := float64(nodes), float64(perNode), float64(s)/float64(n)
	G := (g - 1) * (intra.Alpha.Seconds() + b/float64(intra.Bandwidth))
	E := inter.Alpha.Seconds() + g*b/float64(inter.Bandwidth)
	return math.Max(M*G, math.Max(G+(M-1)*E, (M-1)*G+E))
}

// AllToAllPairwiseTwoLevelTime is AllToAllPairwise's time on ranks with
// a port into their node and a NIC: every message is ready at once, so
// the g−1 to the rank's own node go over NVLink while the n−g to other
// nodes go through the NIC, each step a permutation on either port:
//
//	max((g−1)(α_intra + S/(n·B_intra)), (n−g)(α_inter + S/(n·B_inter)))
func AllToAllPairwiseTwoLevelTime(nodes, perNode int, s units.Bytes, intra, inter Link) float64 {
	n := nodes * perNode
	if n < 2 {
		return 0
	}
	b := float64(s) / float64(n)
	in := float64(perNode-1) * (intra.Alpha.Seconds() + b/float64(intra.Bandwidth))
	out := float64(n-perNode) * (inter.Alpha.Seconds() + b/float64(inter.Bandwidth))
	return math.Max(in, out)
}
