package collective

import (
	"math/bits"

	"paraplay/sim/units"
)

// RecursiveDoubling is the all-reduce for small messages (Thakur,
// Rabenseifner & Gropp 2005, §4.4): in step j rank r swaps its whole buffer
// with rank r XOR 2^j and adds what it receives, so after log2 n steps every
// rank holds the sum. Each step costs α + S·β:
//
//	log2(n)·(α + S·β)   (γ not charged)
//
// When n is not a power of two, with p the largest power of two below n
// and e = n − p, MPICH's fold is used: first the even ranks among the first
// 2e send their buffer to the odd rank above them (which adds it), then the
// p remaining ranks (the odd ranks below 2e, and every rank from 2e on) run
// recursive doubling, and finally each odd rank below 2e sends the result
// back to its even neighbour: (⌊log2 n⌋ + 2)·(α + S·β).
func RecursiveDoubling(n int, s units.Bytes) Schedule {
	sch := Schedule{Op: OpAllReduce, Algorithm: "recursive_doubling", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	b := newBuilder(&sch, []units.Bytes{s})
	p := 1 << (bits.Len(uint(n)) - 1)
	extra := n - p
	// active[v] is the rank that plays virtual rank v of the power-of-two
	// exchange.
	active := make([]int, 0, p)
	for r := range n {
		if r >= 2*extra || r%2 == 1 {
			active = append(active, r)
		}
	}
	step := 0
	if extra > 0 {
		for r := 0; r < 2*extra; r += 2 {
			b.send(step, r, r+1, 0, 1, PhaseReduce, true)
		}
		step++
	}
	for d := 1; d < p; d *= 2 {
		for v, r := range active {
			b.send(step, r, active[v^d], 0, 1, PhaseAllReduce, true)
		}
		step++
	}
	for r := 0; r < 2*extra; r += 2 {
		b.send(step, r+1, r, 0, 1, PhaseBroadcast, false)
	}
	return sch
}

// recursiveDoublingSteps is the number of α + S·β rounds of
// RecursiveDoubling on n ranks.
func recursiveDoublingSteps(n int) int {
	if n < 2 {
		return 0
	}
	k := bits.Len(uint(n)) - 1
	if n&(n-1) != 0 {
		k += 2
	}
	return k
}
