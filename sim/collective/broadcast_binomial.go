package collective

import (
	"math/bits"

	"paraplay/sim/units"
)

// BroadcastBinomial sends the root's S bytes to every rank along a binomial
// tree (Thakur, Rabenseifner & Gropp 2005, §4.1): with v = (r − root) mod n
// the rank's distance from the root, in round j every rank with v < 2^j
// already holds the data and sends all of it to v + 2^j. The informed set
// doubles each round, so
//
//	⌈log2 n⌉·(α + S·β)
func BroadcastBinomial(n int, s units.Bytes, root int) Schedule {
	sch := Schedule{Op: OpBroadcast, Algorithm: "binomial", Ranks: n, Bytes: s, Root: root}
	if n < 2 || s <= 0 || root < 0 || root >= n {
		return sch
	}
	b := newBuilder(&sch, []units.Bytes{s})
	for j := 0; 1<<j < n; j++ {
		for v := 0; v < 1<<j && v+1<<j < n; v++ {
			b.send(j, (v+root)%n, (v+1<<j+root)%n, 0, 1, PhaseBroadcast, false)
		}
	}
	return sch
}

// ReduceBinomial sums every rank's S bytes at the root along a binomial tree
// (Thakur, Rabenseifner & Gropp 2005, §4.1), the broadcast tree run
// backwards: with v = (r − root) mod n, in round j every rank with
// v mod 2^(j+1) = 2^j sends its partial sum to v − 2^j, which adds it.
//
//	⌈log2 n⌉·(α + S·β)   (γ not charged)
func ReduceBinomial(n int, s units.Bytes, root int) Schedule {
	sch := Schedule{Op: OpReduce, Algorithm: "binomial", Ranks: n, Bytes: s, Root: root}
	if n < 2 || s <= 0 || root < 0 || root >= n {
		return sch
	}
	b := newBuilder(&sch, []units.Bytes{s})
	for j := 0; 1<<j < n; j++ {
		for v := 1 << j; v < n; v += 2 << j {
			b.send(j, (v+root)%n, (v-1<<j+root)%n, 0, 1, PhaseReduce, true)
		}
	}
	return sch
}

// ceilLog2 is ⌈log2 n⌉ for n ≥ 1.
func ceilLog2(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}
