package collective

import "paraplay/sim/units"

// TorusSlicesAllReduce is the all-reduce of S bytes over several TPU
// slices of grid g joined by the data-centre network (DCN), as multi-slice
// data parallelism runs it (a hierarchical all-reduce in the manner of
// MaxText's DCN data axis): each slice reduce-scatters over its torus
// (TorusSchedule), the chips at the same place in every slice all-reduce
// their reduced pieces in a ring over the DCN, and each slice all-gathers
// the result over its torus. Rank s·C + c is chip c of slice s (C chips a
// slice). A DCN message carries the same chunk of each of the chip's k
// pieces (one per torus axis part) as one message (Ranges). slices < 2 is
// TorusSchedule's all-reduce.
func TorusSlicesAllReduce(g Grid, slices int, s units.Bytes) (Schedule, error) {
	if slices < 2 {
		return TorusSchedule(OpAllReduce, g, s)
	}
	if err := g.Validate(); err != nil {
		return Schedule{}, err
	}
	c := g.chips()
	sch := Schedule{Op: OpAllReduce, Algorithm: "torus", Ranks: c * slices, Bytes: s}
	if s <= 0 {
		return sch, nil
	}
	empty := Schedule{Ranks: c, Bytes: s}
	if g.group() > 1 {
		sch = replicate(sch, reversed(torusGather(g, s, 0, nil, empty)), slices, c, nil)
	}
	sch = dcnRing(sch, g, slices, s, finalReceives(sch))
	if g.group() > 1 {
		sch = replicate(sch, torusGather(g, s, 0, nil, empty), slices, c, finalReceives(sch))
	}
	sch.Op = OpAllReduce
	return sch, nil
}

// replicate appends part, a schedule of one slice's c chips, once per
// slice, its steps after sch's; a transfer of part that waits for nothing
// waits for first[rank] (nil: nothing).
func replicate(sch, part Schedule, slices, c int, first [][]int) Schedule {
	base := sch.Steps
	for sl := 0; sl < slices; sl++ {
		off := len(sch.Transfers)
		for _, t := range part.Transfers {
			t.Src, t.Dst, t.Step = t.Src+sl*c, t.Dst+sl*c, t.Step+base
			after := make([]int, 0, len(t.After))
			for _, d := range t.After {
				after = append(after, d+off)
			}
			if t.After == nil && first != nil {
				after = first[t.Src]
			}
			t.After = after
			sch.Transfers = append(sch.Transfers, t)
		}
	}
	sch.Steps = base + part.Steps
	return sch
}

// dcnRing appends the ring all-reduce (Patarasuk & Yuan 2009) of each
// chip's reduced pieces among the chips at its place in every slice: in
// reduce-scatter step k, slice r sends chunk (r−k) mod M of every piece to
// slice r+1, which adds it; in the all-gather steps the sums go round once
// more. A chip's first send waits for first[rank], its others for what it
// received the step before.
func dcnRing(sch Schedule, g Grid, m int, s units.Bytes, first [][]int) Schedule {
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
	for step := 0; step < 2*(m-1); step++ {
		shift, phase := step, PhaseReduceScatter
		if step >= m-1 {
			shift, phase = step-m, PhaseAllGather
		}
		for chip := 0; chip < c; chip++ {
			for r := 0; r < m; r++ {
				chunk := ((r-shift)%m + m) % m
				src, dst := r*c+chip, (r+1)%m*c+chip
				t := Transfer{Step: sch.Steps + step, Src: src, Dst: dst, Chunk: chunk, Phase: phase, Reduce: phase == PhaseReduceScatter}
				for _, p := range pieces[chip] {
					if rg := (Range{p.Offset + ChunkOffset(p.Bytes, m, chunk), ChunkBytes(p.Bytes, m, chunk)}); rg.Bytes > 0 {
						t.Ranges = append(t.Ranges, rg)
						t.Bytes += rg.Bytes
					}
				}
				next[dst] = prev[dst] // an empty chunk: the next send waits as this one would have
				if t.Bytes == 0 {
					continue
				}
				t.Offset = t.Ranges[0].Offset
				if len(t.Ranges) == 1 {
					t.Ranges = nil
				}
				t.After = first[src]
				if prev[src] >= 0 {
					t.After = []int{prev[src]}
				}
				next[dst] = len(sch.Transfers)
				sch.Transfers = append(sch.Transfers, t)
			}
		}
		prev, next = next, prev
	}
	sch.Steps += 2 * (m - 1)
	return sch
}

// TorusSlicesTime is TorusSlicesAllReduce's closed form: the torus
// reduce-scatter and all-gather of each slice (TorusTime's all-reduce on
// the ICI link α, bw) and between them the DCN ring over the M slices,
// 2(M−1) steps each moving a chip's 1/M of its reduced S/N bytes (N the
// chips of its group) on a path of latency dcnAlpha at dcnBW, each chip's
// share of its host's network link (or its PCIe link, if slower):
//
//	T = 2·T_AG(g) + 2(M−1)·(α_DCN + S/(N·M)/B_DCN).
func TorusSlicesTime(g Grid, slices int, s units.Bytes, alpha units.Time, bw units.Bandwidth, dcnAlpha units.Time, dcnBW units.Bandwidth) float64 {
	t := TorusTime(string(OpAllReduce), g, s, alpha, bw)
	if slices < 2 {
		return t
	}
	m := float64(slices)
	return t + 2*(m-1)*(dcnAlpha.Seconds()+float64(s)/(float64(g.group())*m)/float64(dcnBW))
}
