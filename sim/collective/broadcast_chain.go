package collective

import "paraplay/sim/units"

// BroadcastChain is the pipelined chain broadcast for large buffers (the
// "pipelined" broadcast of Thakur, Rabenseifner & Gropp 2005; NCCL's ring
// broadcast): the S bytes are cut into chunks pieces (ChunkBytes) that flow
// down the chain root, root+1, …, root+n−1 (mod n); rank at distance v sends
// piece p at step v + p, as soon as it has received it. The first piece
// needs n−1 hops and the remaining chunks−1 follow one message time apart,
// so
//
//	(n + chunks − 2)·(α + S/chunks·β)
//
// which for large S and the best chunks approaches S·β, independent of n.
// chunks < 1 counts as 1.
func BroadcastChain(n int, s units.Bytes, root, chunks int) Schedule {
	sch := Schedule{Op: OpBroadcast, Algorithm: "chain", Ranks: n, Bytes: s, Root: root}
	if n < 2 || s <= 0 || root < 0 || root >= n {
		return sch
	}
	chunks = max(chunks, 1)
	b := newBuilder(&sch, evenChunks(s, chunks))
	for step := 0; step < n-2+chunks; step++ {
		for v := max(0, step-chunks+1); v <= min(step, n-2); v++ {
			p := step - v
			b.send(step, (v+root)%n, (v+1+root)%n, p, p+1, PhaseBroadcast, false)
		}
	}
	return sch
}
