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
	// The pools at their largest: each rank's slice of each channel
	// waits for one transfer, and emit writes a message's one range before
	// it drops it (channels more).
	sch.Transfers = make([]Transfer, 0, sch.Steps*len(members))
	sch.Ranges, sch.Deps = make([]Range, 0, sch.Steps*ranges+channels), make([]int32, 0, sch.Steps*n*channels)
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
// there, or nothing when they are all empty. Its ranges and dependencies
// go straight into the schedule's pools.
func (cb *channelBuilder) emit(step, src, dst, p int, phase Phase) {
	sch := cb.sch
	idx := len(sch.Transfers)
	t := Transfer{Step: step, Src: src, Dst: dst, Phase: phase, Reduce: phase == PhaseReduceScatter}
	r0, d0 := len(sch.Ranges), len(sch.Deps)
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
		sch.Ranges = append(sch.Ranges, m.rng)
		if m.dep >= 0 && !slices.Contains(sch.Deps[d0:], int32(m.dep)) {
			sch.Deps = append(sch.Deps, int32(m.dep))
		}
	}
	if n := len(sch.Ranges) - r0; n > 1 {
		t.ranges = window{int32(r0), int32(n)}
	} else {
		sch.Ranges = sch.Ranges[:r0] // one range: [Offset, Offset+Bytes)
	}
	if t.Bytes == 0 {
		return
	}
	if n := len(sch.Deps) - d0; n > 0 {
		slices.Sort(sch.Deps[d0:])
		t.after = window{int32(d0), int32(n)}
	}
	sch.Transfers = append(sch.Transfers, t)
}
