package collective

import "paraplay/sim/units"

// ReduceScatterRing is the reduce-scatter half of the ring all-reduce
// (Patarasuk & Yuan 2009): S is the whole buffer each rank contributes, cut
// into n chunks (ChunkBytes); in step k rank i sends chunk (i−k−1) mod n to
// rank i+1, which adds its own copy, so that after n−1 steps rank r holds
// the full sum of chunk r, as MPI_Reduce_scatter_block and NCCL leave it.
// Time (Thakur, Rabenseifner & Gropp 2005):
//
//	(n−1)·α + (n−1)/n · S·β   (γ not charged)
func ReduceScatterRing(n int, s units.Bytes) Schedule {
	sch := Schedule{Op: OpReduceScatter, Algorithm: "ring", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	b := newBuilder(&sch, evenChunks(s, n))
	b.ringReduceScatter(0, identity(n), unitSpans(n))
	return sch
}

// AllGatherRing is the ring all-gather: S is the gathered size, rank r
// starts with chunk r of it (ChunkBytes), and in step k rank i forwards
// chunk (i−k) mod n to rank i+1. Time (Thakur, Rabenseifner & Gropp 2005):
//
//	(n−1)·α + (n−1)/n · S·β
func AllGatherRing(n int, s units.Bytes) Schedule {
	sch := Schedule{Op: OpAllGather, Algorithm: "ring", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	b := newBuilder(&sch, evenChunks(s, n))
	b.ringAllGather(0, identity(n), unitSpans(n))
	return sch
}

// identity is the ranks 0..n−1 in order.
func identity(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// unitSpans is one span per chunk of an n-chunk grid.
func unitSpans(n int) []span {
	sp := make([]span, n)
	for i := range sp {
		sp[i] = span{i, i + 1}
	}
	return sp
}
