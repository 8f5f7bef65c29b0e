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
	return RingPipelined(n, s, 1)
}

// RingPipelined is Ring with every step's chunk cut into pieces messages
// (ChunkBytes of the chunk), so that a rank forwards the first piece of a
// chunk while the rest is still arriving, as NCCL does with its slices.
// Step k·pieces+p carries piece p of ring step k; each piece waits only for
// the same piece of the previous ring step. Transfer.Chunk stays the ring's
// chunk index. pieces < 1 counts as 1.
//
// On the ideal switch of the α–β model every rank is busy at every moment
// even without pieces, so pipelining cannot hide anything and only adds
// latency terms: the time is
//
//	2(n−1)·pieces·α + 2·(n−1)/n · S·β
//
// (each port sends 2(n−1)·pieces messages back to back). It pays off on
// multi-hop routes, where a piece can be on the second link while the next
// is on the first.
func RingPipelined(n int, s units.Bytes, pieces int) Schedule {
	sch := Schedule{Op: OpAllReduce, Algorithm: "ring", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	pieces = max(pieces, 1)
	steps := 2 * (n - 1)
	sch.Steps = steps * pieces
	sch.Transfers = make([]Transfer, 0, sch.Steps*n)
	// Every transfer waits for at most one: the pool at its largest.
	sch.Deps = make([]int32, 0, sch.Steps*n)
	// recvAt[r][p] is the index of the transfer that brought piece p to
	// rank r in the previous ring step.
	recvAt, next := make([][]int, n), make([][]int, n)
	for r := range recvAt {
		recvAt[r], next[r] = make([]int, pieces), make([]int, pieces)
	}
	for step := 0; step < steps; step++ {
		phase, shift := PhaseReduceScatter, step
		if step >= n-1 {
			phase, shift = PhaseAllGather, step-(n-1)-1
		}
		for p := 0; p < pieces; p++ {
			for i := 0; i < n; i++ {
				chunk := ((i-shift)%n + n) % n
				t := ringPiece(s, n, chunk, pieces, p)
				t.Step, t.Src, t.Dst, t.Phase = step*pieces+p, i, (i+1)%n, phase
				t.Reduce = phase == PhaseReduceScatter
				if step > 0 && recvAt[i][p] >= 0 && t.Bytes > 0 {
					t.after = window{int32(len(sch.Deps)), 1}
					sch.Deps = append(sch.Deps, int32(recvAt[i][p]))
				}
				// A buffer smaller than n·pieces bytes has empty pieces:
				// they are not sent, and nothing waits for them.
				next[t.Dst][p] = -1
				if t.Bytes > 0 {
					next[t.Dst][p] = len(sch.Transfers)
					sch.Transfers = append(sch.Transfers, t)
				}
			}
		}
		recvAt, next = next, recvAt
	}
	return sch
}

// ringPiece is piece p of chunk when the chunk is cut into pieces, with its
// Chunk, Offset and Bytes set.
func ringPiece(s units.Bytes, n, chunk, pieces, p int) Transfer {
	cb := ChunkBytes(s, n, chunk)
	return Transfer{
		Chunk:  chunk,
		Offset: ChunkOffset(s, n, chunk) + ChunkOffset(cb, pieces, p),
		Bytes:  ChunkBytes(cb, pieces, p),
	}
}

// RingTime is the closed-form α–β time of Ring on n ranks with per-message
// latency α and link bandwidth B (β = 1/B): 2(n−1)α + 2(n−1)/n · S/B
// (Thakur, Rabenseifner & Gropp 2005, §4; Patarasuk & Yuan 2009). The γ
// term of the additions is not charged.
func RingTime(n int, s units.Bytes, alpha units.Time, bw units.Bandwidth) float64 {
	nf := float64(n)
	return 2*(nf-1)*alpha.Seconds() + 2*(nf-1)/nf*float64(s)/float64(bw)
}
