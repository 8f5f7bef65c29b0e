package collective

import "paraplay/sim/units"

// torusPart is one part of a torus all-gather in one phase: the axis it
// rings over and, per chip and direction (0: up the axis, 1: down),
// whether a block came in the step before (got) and what forwarding it
// waits for (wait: the transfer that brought it, or what an empty one
// would have waited for).
type torusPart struct {
	axis, steps int
	got         [][2]bool
	wait        [][2][]int
}

// torusGather appends to sch the all-gather of TorusSchedule, its steps
// from base, each chip's first sends waiting for first[chip] (nil: none).
func torusGather(g Grid, s units.Bytes, base int, first [][]int, sch Schedule) Schedule {
	ax := g.spanned()
	k, chips := len(ax), g.chips()
	prev := first
	if prev == nil {
		prev = make([][]int, chips)
	}
	for p := 0; p < k; p++ {
		parts := make([]torusPart, k)
		steps := 0
		for j := range parts {
			a := ax[(j+p)%k]
			parts[j] = torusPart{axis: a, steps: axisSteps(g.Dims[a], g.Wrap[a]), got: make([][2]bool, chips), wait: make([][2][]int, chips)}
			steps = max(steps, parts[j].steps)
		}
		cur := make([][]int, chips)
		for t := 0; t < steps; t++ {
			for j := range parts {
				if t < parts[j].steps {
					sch.Transfers = torusStep(g, s, ax, j, p, t, base+t, &parts[j], prev, cur, sch.Transfers)
				}
			}
		}
		prev, base = cur, base+steps
	}
	sch.Steps = base
	sch.Op = OpAllGather
	if first != nil {
		sch.Op = OpAllReduce
	}
	return sch
}

// torusStep appends step t of part j in phase p: every chip sends up and
// down the part's axis the block it received from the other side at step
// t−1 (its own at t = 0), the last step of an even ring half a block each
// way; a send at t = 0 waits for the chip's data of the previous phase.
func torusStep(g Grid, s units.Bytes, ax []int, j, p, t, step int, part *torusPart, prev, cur [][]int, out []Transfer) []Transfer {
	a, n, wrap := part.axis, g.Dims[part.axis], g.Wrap[part.axis]
	got, wait := make([][2]bool, len(part.got)), make([][2][]int, len(part.got))
	for c := range part.got {
		i := coord(g, c, a)
		for dir, d := range [2]int{1, -1} {
			origin, dst := i-d*t, i+d
			if wrap {
				origin, dst = (origin%n+n)%n, (dst%n+n)%n
			} else if origin < 0 || origin >= n || dst < 0 || dst >= n {
				continue
			}
			after := prev[c]
			if t > 0 && !part.got[c][dir] {
				continue
			} else if t > 0 {
				after = part.wait[c][dir]
			}
			tr := torusBlock(g, s, ax, j, p, withCoord(g, c, a, origin))
			if wrap && n%2 == 0 && t == n/2-1 {
				half := tr.Bytes
				tr.Offset += ChunkOffset(half, 2, dir)
				tr.Bytes = ChunkBytes(half, 2, dir)
			}
			to := withCoord(g, c, a, dst)
			got[to][dir], wait[to][dir] = true, after
			if tr.Bytes == 0 {
				continue // a buffer of fewer bytes than pieces: nothing to send, nothing to wait for
			}
			tr.Step, tr.Src, tr.Dst, tr.Phase, tr.After = step, c, to, PhaseAllGather, after
			wait[to][dir] = []int{len(out)}
			cur[to] = append(cur[to], len(out))
			out = append(out, tr)
		}
	}
	part.got, part.wait = got, wait
	return out
}

// torusBlock is the range of the block chip c holds of part j at the start
// of phase p: the pieces of the chips that differ from c only along the
// part's first p axes, contiguous in the part-major layout.
func torusBlock(g Grid, s units.Bytes, ax []int, j, p, c int) Transfer {
	k, n := len(ax), g.group()
	idx, span := 0, 1
	for i := k - 1; i >= 0; i-- {
		a := ax[(j+i)%k]
		idx = idx*g.Dims[a] + coord(g, c, a)
	}
	for i := 0; i < p; i++ {
		span *= g.Dims[ax[(j+i)%k]]
	}
	base := idx - idx%span
	part := ChunkBytes(s, k, j)
	off := ChunkOffset(part, n, base)
	return Transfer{Chunk: j*n + base, Offset: ChunkOffset(s, k, j) + off, Bytes: ChunkOffset(part, n, base+span) - off}
}

// coord is chip c's position along axis a.
func coord(g Grid, c, a int) int {
	for i := 0; i < a; i++ {
		c /= g.Dims[i]
	}
	return c % g.Dims[a]
}

// withCoord is chip c moved to position v along axis a.
func withCoord(g Grid, c, a, v int) int {
	stride := 1
	for i := 0; i < a; i++ {
		stride *= g.Dims[i]
	}
	return c + (v-coord(g, c, a))*stride
}
