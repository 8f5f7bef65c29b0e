package collective

import (
	"fmt"

	"paraplay/sim/units"
)

// TorusSlicesSchedule is the collective op (all_reduce, reduce_scatter or
// all_gather) of S bytes over several TPU slices of grid g joined by the
// data-centre network (DCN), as multi-slice data parallelism and FSDP run
// it: the standard two-level (hierarchical) decomposition, the fast level
// first where data shrinks and last where it grows, so that the slow DCN
// carries only 1/N of the buffer (N the chips of a torus group). Austin et
// al. 2025, 'How to Scale Your Model', Part 2 ('Multi-slice training')
// sets slices joined by a much slower DCN and Part 5 runs data
// parallelism over the DCN axis with FSDP within a pod; MaxText's DCN data
// axis is the same layout. Rank s·C + c is chip c of
// slice s (C chips a slice). A DCN message carries the same chunk of each
// of the chip's k pieces (one per torus axis part) as one message
// (Ranges).
//
//   - all_reduce: each slice reduce-scatters over its torus
//     (TorusSchedule), the chips at the same place in every slice
//     all-reduce their reduced pieces in a ring over the DCN, and each
//     slice all-gathers the result over its torus;
//   - reduce_scatter: each slice's torus reduce-scatter, then the DCN
//     ring's reduce-scatter of each chip's pieces, so that chip c of slice
//     s ends with chunk s of its torus pieces summed over every slice;
//   - all_gather: the mirror, the DCN ring's all-gather of each chip's
//     chunk first, then each slice's torus all-gather.
//
// slices < 2 is TorusSchedule.
func TorusSlicesSchedule(op Op, g Grid, slices int, s units.Bytes) (Schedule, error) {
	if slices < 2 {
		return TorusSchedule(op, g, s)
	}
	if err := g.Validate(); err != nil {
		return Schedule{}, err
	}
	if op != OpAllReduce && op != OpReduceScatter && op != OpAllGather {
		return Schedule{}, fmt.Errorf("torus: %s is not a torus collective; want all_gather, reduce_scatter or all_reduce", op)
	}
	c := g.chips()
	sch := Schedule{Op: op, Algorithm: "torus", Ranks: c * slices, Bytes: s}
	if s <= 0 {
		return sch, nil
	}
	empty := Schedule{Ranks: c, Bytes: s}
	if g.group() > 1 && op != OpAllGather {
		sch = replicate(sch, reversed(torusGather(g, s, 0, nil, empty)), slices, c, nil)
	}
	switch op { // the DCN ring's steps: reduce-scatter 0..M−2, all-gather M−1..2M−3
	case OpAllReduce:
		sch = dcnRing(sch, g, slices, s, finalReceives(sch), 0, 2*(slices-1), 0)
	case OpReduceScatter:
		sch = dcnRing(sch, g, slices, s, finalReceives(sch), 0, slices-1, -1)
	default:
		sch = dcnRing(sch, g, slices, s, nil, slices-1, 2*(slices-1), -1)
	}
	if g.group() > 1 && op != OpReduceScatter {
		sch = replicate(sch, torusGather(g, s, 0, nil, empty), slices, c, finalReceives(sch))
	}
	sch.Op = op
	return sch, nil
}

// replicate appends part, a schedule of one slice's c chips, once per
// slice, its steps after sch's; a transfer of part that waits for nothing
// waits for first[rank] (nil: nothing).
func replicate(sch, part Schedule, slices, c int, first [][]int) Schedule {
	base := sch.Steps
	for sl := 0; sl < slices; sl++ {
		off := len(sch.Transfers)
		for k, t := range part.Transfers {
			t.Src, t.Dst, t.Step = t.Src+sl*c, t.Dst+sl*c, t.Step+base
			deps := part.After(k)
			after := make([]int, 0, len(deps))
			for _, d := range deps {
				after = append(after, int(d)+off)
			}
			if len(deps) == 0 && first != nil {
				after = first[t.Src]
			}
			var ranges []Range
			if t.ranges.n > 0 {
				ranges = part.Pieces(k)
			}
			sch.Add(t, after, ranges)
		}
	}
	sch.Steps = base + part.Steps
	return sch
}

// dcnRing appends steps from..to−1 of the ring all-reduce (Patarasuk &
// Yuan 2009) of each chip's pieces among the chips at its place in every
// slice: in reduce-scatter step k < M−1, slice r sends chunk (r−k+o) mod M
// of every piece to slice r+1, which adds it; in the all-gather steps the
// sums go round once more. With o = 0 (the all-reduce) slice r ends the
// reduce-scatter holding chunk r+1; with o = −1 chunk r, the shard a
// reduce-scatter leaves it and an all-gather starts from. A chip's first
// send waits for first[rank] (nil: nothing), its others for what it
// received the step before.
func dcnRing(sch Schedule, g Grid, m int, s units.Bytes, first [][]int, from, to, o int) Schedule {
	ax, c := g.spanned(), g.chips()
	pieces := make([][]Transfer, c)
	// prev[rank] is the transfer the rank received the step before (−1:
	// none yet).
	prev, next := make([]int, c*m), make([]int, c*m)
	for chip := range pieces {
		for j := range ax {
			pieces[chip] = append(pieces[chip], torusBlock(g, s, ax, j, 0, chip))
		}
	}
	for r := range prev {
		prev[r], next[r] = -1, -1
	}
	for step := from; step < to; step++ {
		shift, phase := step, PhaseReduceScatter
		if step >= m-1 {
			shift, phase = step-m, PhaseAllGather
		}
		for chip := 0; chip < c; chip++ {
			for r := 0; r < m; r++ {
				chunk := ((r-shift+o)%m + m) % m
				src, dst := r*c+chip, (r+1)%m*c+chip
				t := Transfer{Step: sch.Steps + step - from, Src: src, Dst: dst, Chunk: chunk, Phase: phase, Reduce: phase == PhaseReduceScatter}
				var ranges []Range
				for _, p := range pieces[chip] {
					if rg := (Range{p.Offset + ChunkOffset(p.Bytes, m, chunk), ChunkBytes(p.Bytes, m, chunk)}); rg.Bytes > 0 {
						ranges = append(ranges, rg)
						t.Bytes += rg.Bytes
					}
				}
				next[dst] = prev[dst] // an empty chunk: the next send waits as this one would have
				if t.Bytes == 0 {
					continue
				}
				t.Offset = ranges[0].Offset // one range is [Offset, Offset+Bytes): Add keeps none
				var after []int
				if first != nil {
					after = first[src]
				}
				if prev[src] >= 0 {
					after = []int{prev[src]}
				}
				next[dst] = sch.Add(t, after, ranges)
			}
		}
		prev, next = next, prev
	}
	sch.Steps += to - from
	return sch
}

// TorusSlicesTime is TorusSlicesSchedule's closed form (the standard
// hierarchical decomposition's cost, the levels one after the other): the
// torus reduce-scatter and all-gather of each slice (TorusTime on the ICI
// link α, bw) and the DCN ring over the M slices, each of its steps moving
// a chip's 1/M of its reduced S/N bytes (N the chips of its group) on a
// path of latency dcnAlpha at dcnBW, each chip's share of its host's
// network link (or its PCIe link, if slower):
//
//	all_reduce:                    T = 2·T_AG(g) + 2(M−1)·(α_DCN + S/(N·M)/B_DCN),
//	reduce_scatter, all_gather:    T =   T_AG(g) +  (M−1)·(α_DCN + S/(N·M)/B_DCN).
func TorusSlicesTime(op string, g Grid, slices int, s units.Bytes, alpha units.Time, bw units.Bandwidth, dcnAlpha units.Time, dcnBW units.Bandwidth) float64 {
	t := TorusTime(op, g, s, alpha, bw)
	if slices < 2 || s <= 0 {
		return t
	}
	return t + float64(dcnSteps(op, slices))*(dcnAlpha.Seconds()+float64(s)/float64(g.group()*slices)/float64(dcnBW))
}

// dcnSteps is the DCN ring's steps in op over m slices: 2(M−1) for an
// all-reduce, M−1 for a reduce-scatter or an all-gather.
func dcnSteps(op string, m int) int {
	if op == string(OpAllReduce) {
		return 2 * (m - 1)
	}
	return m - 1
}

// TorusSlicesDCNBytes is the bytes each chip receives over the DCN in
// TorusSlicesSchedule's op of S bytes over m slices of g: each DCN step
// brings it 1/M of its S/N reduced bytes (N the chips of its group).
func TorusSlicesDCNBytes(op Op, g Grid, m int, s units.Bytes) float64 {
	if m < 2 || s <= 0 {
		return 0
	}
	return float64(dcnSteps(string(op), m)) * float64(s) / float64(g.group()*m)
}
