package collective

import (
	"fmt"

	"paraplay/sim/units"
)

// Hierarchical is the two-level all-reduce used on GPU clusters (Jia et al.
// 2018, "Highly Scalable Deep Learning Training System with Mixed-Precision";
// Horovod's and NCCL's hierarchical modes): g = perNode ranks share a node,
// rank r = node·g + local.
//
//  1. Inside each node, a ring reduce-scatter (ReduceScatterRing's order)
//     leaves local rank l with the node's sum of chunk l (ChunkBytes(S, g, l)).
//  2. For every l — one rail — the N = nodes ranks with local index l run a
//     ring all-reduce (Ring's algorithm) of chunk l, cut into N sub-chunks.
//  3. Inside each node, a ring all-gather spreads the reduced chunks.
//
// The buffer grid is g·N sub-chunks: Transfer.Chunk l·N + j is sub-chunk j
// of chunk l. Steps: g−1, then 2(N−1), then g−1. See HierarchicalTime for
// the cost.
func Hierarchical(nodes, perNode int, s units.Bytes) (Schedule, error) {
	n := nodes * perNode
	sch := Schedule{Op: OpAllReduce, Algorithm: "hierarchical", Ranks: n, Bytes: s}
	if nodes < 1 || perNode < 1 {
		return sch, fmt.Errorf("collective: hierarchical all-reduce needs at least 1 node and 1 rank per node, got %d×%d", nodes, perNode)
	}
	if n < 2 || s <= 0 {
		return sch, nil
	}
	var sizes []units.Bytes
	for l := range perNode {
		sizes = append(sizes, evenChunks(ChunkBytes(s, perNode, l), nodes)...)
	}
	b := newBuilder(&sch, sizes)
	chunks := make([]span, perNode) // chunk l: sub-chunks l·N … l·N+N−1
	for l := range chunks {
		chunks[l] = span{l * nodes, (l + 1) * nodes}
	}
	step := 0
	for k := 0; k < perNode-1; k++ { // 1: intra-node reduce-scatter
		for node := range nodes {
			b.ringReduceScatterStep(step, k, rankRange(node*perNode, perNode, 1), chunks)
		}
		step++
	}
	for k := 0; k < 2*(nodes-1); k++ { // 2: per-rail ring all-reduce
		for l := range perNode {
			b.ringAllReduceStep(step, k, rankRange(l, nodes, perNode), unitSpansFrom(l*nodes, nodes))
		}
		step++
	}
	for k := 0; k < perNode-1; k++ { // 3: intra-node all-gather
		for node := range nodes {
			b.ringAllGatherStep(step, k, rankRange(node*perNode, perNode, 1), chunks)
		}
		step++
	}
	return sch, nil
}

// HierarchicalTime is the α–β time of Hierarchical with separate links
// inside a node (α_intra, B_intra) and between nodes (α_inter, B_inter), g =
// perNode, N = nodes. The phases cannot overlap — every rank is busy in
// each, and each phase waits for the data of the one before — so the time is
// the sum of the rings' closed forms (Patarasuk & Yuan 2009): a
// reduce-scatter and an all-gather of S among g ranks and an all-reduce of
// S/g among N ranks,
//
//	2(g−1)·α_intra + 2(g−1)/g · S/B_intra + 2(N−1)·α_inter + 2(N−1)/N · (S/g)/B_inter
//
// (γ not charged). With g = 1 it is Ring over the nodes; with N = 1 it is
// Ring inside the node.
func HierarchicalTime(nodes, perNode int, s units.Bytes, intraAlpha units.Time, intraBW units.Bandwidth, interAlpha units.Time, interBW units.Bandwidth) float64 {
	g, N, S := float64(perNode), float64(nodes), float64(s)
	return 2*(g-1)*intraAlpha.Seconds() + 2*(g-1)/g*S/float64(intraBW) +
		2*(N-1)*interAlpha.Seconds() + 2*(N-1)/N*(S/g)/float64(interBW)
}

// rankRange is the m ranks first, first+stride, ….
func rankRange(first, m, stride int) []int {
	r := make([]int, m)
	for i := range r {
		r[i] = first + i*stride
	}
	return r
}

// unitSpansFrom is one span per chunk lo, lo+1, …, lo+m−1.
func unitSpansFrom(lo, m int) []span {
	sp := make([]span, m)
	for i := range sp {
		sp[i] = span{lo + i, lo + i + 1}
	}
	return sp
}
