package collective

import (
	"slices"

	"paraplay/sim/units"
)

// builder appends transfers to a schedule and works out their dependencies
// from the data: it remembers, for every rank and every chunk of a fixed
// grid over the buffer, which transfers last wrote that rank's copy of the
// chunk (a store replaces the list, a reduce adds to it). A transfer that
// sends chunks [lo, hi) of a rank then waits for exactly those writers — the
// transfers whose data it carries.
//
// A transfer carries its sender's data as of the start of its step: writes
// take effect when the builder moves on to a later step, so two ranks may
// swap the same range within one step (recursive doubling). Transfers must
// therefore be added in step order.
type builder struct {
	sch *Schedule
	// off[c] is where chunk c starts; off[len(off)-1] is the buffer size.
	off []units.Bytes
	// writers[r][c] lists the transfers that produced rank r's copy of
	// chunk c, beyond its own contribution.
	writers [][][]int
	// step is the step of the last transfer added; pending holds its
	// step's transfers, whose writes are not applied yet.
	step    int
	pending []int
	after   []int // scratch: the dependencies of the transfer being added
}

// span is the chunks [lo, hi) of a builder's grid.
type span struct{ lo, hi int }

// newBuilder starts a schedule whose buffer is cut into the given chunk
// sizes.
func newBuilder(sch *Schedule, sizes []units.Bytes) *builder {
	b := &builder{sch: sch, off: make([]units.Bytes, len(sizes)+1)}
	for c, size := range sizes {
		b.off[c+1] = b.off[c] + size
	}
	b.writers = make([][][]int, sch.Ranks)
	for r := range b.writers {
		b.writers[r] = make([][]int, len(sizes))
	}
	return b
}

// evenChunks cuts s into n chunks with ChunkBytes.
func evenChunks(s units.Bytes, n int) []units.Bytes {
	sizes := make([]units.Bytes, n)
	for c := range sizes {
		sizes[c] = ChunkBytes(s, n, c)
	}
	return sizes
}

// send appends a transfer of chunks [lo, hi) from src to dst and returns its
// index. It waits for the writers of src's copy of those chunks; dst's copy
// is then written by this transfer (added to, when reduce is set). Empty
// ranges (a chunk of zero bytes) are skipped and return -1.
func (b *builder) send(step, src, dst, lo, hi int, phase Phase, reduce bool) int {
	t := Transfer{
		Step: step, Src: src, Dst: dst, Chunk: lo,
		Offset: b.off[lo], Bytes: b.off[hi] - b.off[lo],
		Phase: phase, Reduce: reduce,
	}
	if step < b.step {
		panic("collective: builder: transfers added out of step order")
	}
	if step > b.step {
		b.flush()
		b.step = step
	}
	if t.Bytes <= 0 {
		return -1
	}
	after := b.after[:0]
	for c := lo; c < hi; c++ {
		after = append(after, b.writers[src][c]...)
	}
	if len(after) > 1 {
		slices.Sort(after)
		after = slices.Compact(after)
	}
	b.after = after
	i := b.sch.Add(t, after, nil)
	b.sch.Steps = max(b.sch.Steps, step+1)
	b.pending = append(b.pending, i)
	return i
}

// flush applies the writes of the pending transfers.
func (b *builder) flush() {
	for _, i := range b.pending {
		t := b.sch.Transfers[i]
		for c := t.Chunk; b.off[c] < t.Offset+t.Bytes; c++ {
			if t.Reduce {
				b.writers[t.Dst][c] = append(b.writers[t.Dst][c], i)
			} else {
				b.writers[t.Dst][c] = []int{i}
			}
		}
	}
	b.pending = b.pending[:0]
}

// sendSpan sends the chunks of sp; see send.
func (b *builder) sendSpan(step, src, dst int, sp span, phase Phase, reduce bool) int {
	return b.send(step, src, dst, sp.lo, sp.hi, phase, reduce)
}

// ringReduceScatter runs a ring reduce-scatter over ranks (position p sends
// to p+1) on groups, one group of chunks per position, from step0 on; see
// ringReduceScatterStep. It returns the next free step.
func (b *builder) ringReduceScatter(step0 int, ranks []int, groups []span) int {
	m := len(ranks)
	for k := 0; k < m-1; k++ {
		b.ringReduceScatterStep(step0+k, k, ranks, groups)
	}
	return step0 + max(m-1, 0)
}

// ringAllGather runs a ring all-gather over ranks on groups from step0 on;
// see ringAllGatherStep. It returns the next free step.
func (b *builder) ringAllGather(step0 int, ranks []int, groups []span) int {
	m := len(ranks)
	for k := 0; k < m-1; k++ {
		b.ringAllGatherStep(step0+k, k, ranks, groups)
	}
	return step0 + max(m-1, 0)
}

// ringReduceScatterStep is step k of a ring reduce-scatter: position p
// sends group (p−k−1) mod m, which the receiver adds to its own, so that
// after m−1 steps position p holds the full sum of group p.
func (b *builder) ringReduceScatterStep(step, k int, ranks []int, groups []span) {
	m := len(ranks)
	for p := range m {
		b.sendSpan(step, ranks[p], ranks[(p+1)%m], groups[((p-k-1)%m+m)%m], PhaseReduceScatter, true)
	}
}

// ringAllGatherStep is step k of a ring all-gather in which position p
// starts with group p: position p forwards group (p−k) mod m.
func (b *builder) ringAllGatherStep(step, k int, ranks []int, groups []span) {
	m := len(ranks)
	for p := range m {
		b.sendSpan(step, ranks[p], ranks[(p+1)%m], groups[((p-k)%m+m)%m], PhaseAllGather, false)
	}
}

// ringAllReduceStep is step k of a ring all-reduce: the m−1 steps of
// ringReduceScatterStep, then the m−1 of ringAllGatherStep.
func (b *builder) ringAllReduceStep(step, k int, ranks []int, groups []span) {
	if m := len(ranks); k < m-1 {
		b.ringReduceScatterStep(step, k, ranks, groups)
	} else {
		b.ringAllGatherStep(step, k-(m-1), ranks, groups)
	}
}
