package collective

import (
	"fmt"

	"paraplay/sim/units"
)

// RecursiveHalvingDoubling is Rabenseifner's all-reduce (Thakur,
// Rabenseifner & Gropp 2005, §4.4): a reduce-scatter by recursive halving
// followed by an all-gather by recursive doubling. n must be a power of two.
//
// The buffer is cut into n chunks (ChunkBytes). In halving step j
// (distance d = n/2^(j+1)) rank r pairs with r XOR d; each keeps the half of
// its current window of chunks on its own side of the d bit (the lower
// half when the bit is 0) and sends the other half, which the partner adds
// to its own. After log2 n steps rank r holds the full sum of chunk r. The
// doubling steps retrace the pairs in reverse (d = 1, 2, …, n/2), each rank
// sending its whole window, so the windows double until everyone holds all.
// Transfer.Chunk is the first chunk of the window sent. Messages shrink
// S/2, S/4, …, S/n and grow back, so the time is
//
//	2·log2(n)·α + 2·(n−1)/n · S·β   (γ not charged)
func RecursiveHalvingDoubling(n int, s units.Bytes) (Schedule, error) {
	sch := Schedule{Op: OpAllReduce, Algorithm: "halving_doubling", Ranks: n, Bytes: s}
	if n < 1 || n&(n-1) != 0 {
		return sch, fmt.Errorf("collective: recursive halving-doubling needs a power-of-two number of ranks, got %d", n)
	}
	if n < 2 || s <= 0 {
		return sch, nil
	}
	b := newBuilder(&sch, evenChunks(s, n))
	win := make([]span, n)
	for r := range win {
		win[r] = span{0, n}
	}
	step := 0
	for d := n / 2; d >= 1; d /= 2 {
		next := make([]span, n)
		for r := range n {
			w := win[r]
			mid := (w.lo + w.hi) / 2
			keep, give := span{w.lo, mid}, span{mid, w.hi}
			if r&d != 0 {
				keep, give = give, keep
			}
			b.sendSpan(step, r, r^d, give, PhaseReduceScatter, true)
			next[r] = keep
		}
		win, step = next, step+1
	}
	for d := 1; d < n; d *= 2 {
		next := make([]span, n)
		for r := range n {
			b.sendSpan(step, r, r^d, win[r], PhaseAllGather, false)
			p := win[r^d]
			next[r] = span{min(win[r].lo, p.lo), max(win[r].hi, p.hi)}
		}
		win, step = next, step+1
	}
	return sch, nil
}
