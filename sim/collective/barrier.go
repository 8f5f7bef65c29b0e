package collective

import "paraplay/sim/units"

// BarrierBytes is the size of a barrier notification: one 8-byte word.
const BarrierBytes units.Bytes = 8

// Barrier is the dissemination barrier of Hensgen, Finkel & Manber (1988),
// as analysed by Mellor-Crummey & Scott (1991): in round j rank i notifies
// rank (i + 2^j) mod n with a BarrierBytes message that carries everything
// i has heard so far (Reduce is set: the receiver merges it into what it
// has heard). After ⌈log2 n⌉ rounds every rank has heard, directly or not,
// from every other, for any n:
//
//	⌈log2 n⌉·(α + 8 B·β)
func Barrier(n int) Schedule {
	sch := Schedule{Op: OpBarrier, Algorithm: "dissemination", Ranks: n, Bytes: BarrierBytes}
	if n < 2 {
		return sch
	}
	b := newBuilder(&sch, []units.Bytes{BarrierBytes})
	for j := 0; 1<<j < n; j++ {
		for i := range n {
			b.send(j, i, (i+1<<j)%n, 0, 1, PhaseBarrier, true)
		}
	}
	return sch
}
