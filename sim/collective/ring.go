package collective

import "paraplay/sim/units"

// Ring is the ring all-reduce of Patarasuk & Yuan (2009), the algorithm
// Horovod and NCCL use for large buffers: the buffer is cut into n chunks;
// in n−1 reduce-scatter steps each rank passes one chunk to its right-hand
// neighbour, which adds its own copy and passes the sum on, until each rank
// holds one fully reduced chunk; in n−1 all-gather steps the reduced chunks
// travel once more around the ring. Each step moves S/n bytes per rank, so
// the whole operation costs
//
//	2(n−1)·α + 2·(n−1)/n · S·β
//
// (plus (n−1)/n · S·γ for the additions, which ParaPlay does not charge yet),
// independent of n in its bandwidth term: the reason it is called
// bandwidth-optimal.
//
// In reduce-scatter step k, rank i sends chunk (i−k) mod n; in all-gather
// step k, rank i sends chunk (i+1−k) mod n. Each send waits for the message
// the rank received in the previous step, which carries that very chunk.
func Ring(n int, s units.Bytes) Schedule {
	sch := Schedule{Op: "all-reduce", Algorithm: "ring", Ranks: n, Bytes: s}
	if n < 2 {
		return sch
	}
	sch.Steps = 2 * (n - 1)
	// recvAt[r] is the index of the transfer rank r received in the
	// previous step.
	recvAt := make([]int, n)
	for step := 0; step < sch.Steps; step++ {
		phase, offset := PhaseReduceScatter, step
		if step >= n-1 {
			phase, offset = PhaseAllGather, step-(n-1)-1
		}
		next := make([]int, n)
		for i := 0; i < n; i++ {
			chunk := ((i-offset)%n + n) % n
			t := Transfer{
				Step: step, Src: i, Dst: (i + 1) % n, Chunk: chunk,
				Bytes: ChunkBytes(s, n, chunk), Phase: phase,
			}
			if step > 0 {
				t.After = []int{recvAt[i]}
			}
			next[t.Dst] = len(sch.Transfers)
			sch.Transfers = append(sch.Transfers, t)
		}
		recvAt = next
	}
	return sch
}

// RingTime is the closed-form α–β time of Ring on n ranks with per-message
// latency α and link bandwidth B (β = 1/B): 2(n−1)α + 2(n−1)/n · S/B
// (Thakur, Rabenseifner & Gropp 2005, §4; Patarasuk & Yuan 2009).
func RingTime(n int, s units.Bytes, alpha units.Time, bw units.Bandwidth) float64 {
	nf := float64(n)
	return 2*(nf-1)*alpha.Seconds() + 2*(nf-1)/nf*float64(s)/float64(bw)
}
