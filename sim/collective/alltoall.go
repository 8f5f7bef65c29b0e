package collective

import "paraplay/sim/units"

// AllToAllPairwise is the pairwise-exchange all-to-all (Thakur,
// Rabenseifner & Gropp 2005, §4.6): S is the bytes one rank sends in total,
// cut into n blocks (ChunkBytes), block j for rank j. In step k−1
// (k = 1 … n−1) rank i sends block (i+k) mod n of its send buffer to rank
// (i+k) mod n and receives from rank (i−k) mod n, so every port carries one
// message per step and nothing waits for anything:
//
//	(n−1)·α + (n−1)/n · S·β
//
// Transfer.Chunk is the block, i.e. the receiver; the receiver stores it in
// the slot of the sender.
func AllToAllPairwise(n int, s units.Bytes) Schedule {
	sch := Schedule{Op: OpAllToAll, Algorithm: "pairwise", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	sch.Steps = n - 1
	for k := 1; k < n; k++ {
		for i := range n {
			j := (i + k) % n
			t := Transfer{
				Step: k - 1, Src: i, Dst: j, Chunk: j,
				Offset: ChunkOffset(s, n, j), Bytes: ChunkBytes(s, n, j), Phase: PhaseAllToAll,
			}
			if t.Bytes > 0 {
				sch.Transfers = append(sch.Transfers, t)
			}
		}
	}
	return sch
}
