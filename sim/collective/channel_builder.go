package collective

import "slices"

// channelBuilder writes ChannelRing's transfers step by step. Each rank's
// slices for a step are grouped by destination into one message; a slice
// waits for the message that brought it to the sender in the step before
// (the same rule as RingPipelined's, per channel).
type channelBuilder struct {
	sch                 *Schedule
	n, pieces, channels int
	order, pos          [][]int // order[c][i] is the rank at position i of ring c; pos[c][r] its inverse
	// recvAt[c][r·pieces+p] is the transfer that brought piece p of
	// channel c to rank r in the previous step, −1 for none; next is
	// being written for the current step.
	recvAt, next [][]int
	members      []channelSlice
	dsts         []int
	rangePool    []Range
	depPool      []int
	// rangesLeft and depsLeft bound what the pools must still hand out,
	// so that a small schedule allocates no more than it uses.
	rangesLeft, depsLeft int
}

// channelSlice is one channel's piece a rank sends in a step.
type channelSlice struct {
	dst, channel, shard int
	rng                 Range
	dep                 int
}

func newChannelBuilder(sch *Schedule, nodes, perNode, pieces, channels int, mesh bool) *channelBuilder {
	n := nodes * perNode
	cb := &channelBuilder{sch: sch, n: n, pieces: pieces, channels: channels}
	// Members per message of a piece step: one message per distinct
	// neighbour of each rank.
	members := make(map[[2]int]int)
	for c := range channels {
		o := channelOrder(nodes, perNode, c)
		if mesh {
			o = meshChannelOrder(nodes, perNode, c)
		}
		p := make([]int, n)
		for i, r := range o {
			p[r] = i
			members[[2]int{r, o[(i+1)%n]}]++
		}
		cb.order, cb.pos = append(cb.order, o), append(cb.pos, p)
		cb.recvAt, cb.next = append(cb.recvAt, fill(n*pieces, -1)), append(cb.next, fill(n*pieces, -1))
	}
	ranges := 0
	for _, m := range members {
		if m > 1 {
			ranges += m
		}
	}
	rs, ag := ringPhases(sch.Op, n)
	sch.Steps = (rs + ag) * pieces
	sch.Transfers = make([]Transfer, 0, sch.Steps*len(members))
	cb.rangesLeft, cb.depsLeft = sch.Steps*ranges, sch.Steps*n*channels
	return cb
}

// fill is n copies of v.
func fill(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// step writes ring step st (reduce-scatter while st < rs, then all-gather)
// for every piece: position i sends group (i−st−1) mod n in a
// reduce-scatter step and group (i−k) mod n in all-gather step k, group i
// of ring c being slice c of the shard of the rank at position i, as
// builder.ringReduceScatterStep and ringAllGatherStep number them.
func (cb *channelBuilder) step(st, rs int) {
	phase, shift := PhaseReduceScatter, st+1
	if st >= rs {
		phase, shift = PhaseAllGather, st-rs
	}
	for p := 0; p < cb.pieces; p++ {
		for r := 0; r < cb.n; r++ {
			cb.members, cb.dsts = cb.members[:0], cb.dsts[:0]
			for c := range cb.channels {
				i := cb.pos[c][r]
				dst := cb.order[c][(i+1)%cb.n]
				shard := cb.order[c][((i-shift)%cb.n+cb.n)%cb.n]
				rng := cb.slice(c, shard, p)
				cb.members = append(cb.members, channelSlice{dst, c, shard, rng, cb.recvAt[c][r*cb.pieces+p]})
				if !slices.Contains(cb.dsts, dst) {
					cb.dsts = append(cb.dsts, dst)
				}
			}
			for _, dst := range cb.dsts {
				cb.emit(st*cb.pieces+p, r, dst, p, phase)
			}
		}
	}
	cb.recvAt, cb.next = cb.next, cb.recvAt
}

// slice is piece p of channel c's slice of shard j.
func (cb *channelBuilder) slice(c, j, p int) Range {
	s := cb.sch.Bytes
	sb := ChunkBytes(s, cb.n, j)
	cbytes := ChunkBytes(sb, cb.channels, c)
	off := ChunkOffset(s, cb.n, j) + ChunkOffset(sb, cb.channels, c) + ChunkOffset(cbytes, cb.pieces, p)
	return Range{Offset: off, Bytes: ChunkBytes(cbytes, cb.pieces, p)}
}

// emit appends the message from src to dst carrying the members bound
// there, or nothing when they are all empty.
func (cb *channelBuilder) emit(step, src, dst, p int, phase string) {
	idx := len(cb.sch.Transfers)
	t := Transfer{Step: step, Src: src, Dst: dst, Phase: phase, Reduce: phase == PhaseReduceScatter}
	count, ndeps := 0, 0
	for _, m := range cb.members {
		if m.dst == dst && m.rng.Bytes > 0 {
			count++
			if m.dep >= 0 {
				ndeps++
			}
		}
	}
	var rngs []Range
	if count > 1 {
		rngs = take(&cb.rangePool, count, &cb.rangesLeft)[:0]
	}
	deps := take(&cb.depPool, ndeps, &cb.depsLeft)[:0]
	for _, m := range cb.members {
		if m.dst != dst {
			continue
		}
		cb.next[m.channel][dst*cb.pieces+p] = -1
		if m.rng.Bytes <= 0 {
			continue // an empty slice is not sent, and nothing waits for it
		}
		cb.next[m.channel][dst*cb.pieces+p] = idx
		if t.Bytes == 0 {
			t.Chunk, t.Offset, t.Channel = m.shard, m.rng.Offset, int8(m.channel)
		} else {
			t.Channel = -1 // several channels' slices in one message
		}
		t.Bytes += m.rng.Bytes
		if rngs != nil {
			rngs = append(rngs, m.rng)
		}
		if m.dep >= 0 && !slices.Contains(deps, m.dep) {
			deps = append(deps, m.dep)
		}
	}
	if count == 0 {
		return
	}
	slices.Sort(deps)
	if len(deps) > 0 {
		t.After = deps
	}
	t.Ranges = rngs
	cb.sch.Transfers = append(cb.sch.Transfers, t)
}

// take cuts k elements off a pool grown in blocks of up to 2¹⁴ (no more
// than *left, what may still be asked for), so that millions of short
// slices cost a few allocations.
func take[T any](pool *[]T, k int, left *int) []T {
	if len(*pool)+k > cap(*pool) {
		*pool = make([]T, 0, max(min(1<<14, *left), k))
	}
	*left -= k
	start := len(*pool)
	*pool = (*pool)[:start+k]
	return (*pool)[start : start+k : start+k]
}
