package collective

import (
	"fmt"

	"paraplay/sim/units"
)

// Grid is the torus a TPU collective runs on: chips on a grid of up to
// three axes (rank = x + X·(y + Y·z), as topo.Torus numbers them), each
// axis a ring where it has a wraparound link and a line where it has not,
// and the axes the collective spans. The chips that differ only along the
// other axes form independent groups that run the same collective at once
// on links of their own (the scaling book's AllGather_X on a 2D mesh).
type Grid struct {
	// Dims is the chips along x, y and z; 1 on an unused axis.
	Dims [3]int
	// Wrap says which axes are rings (a wraparound link closes them).
	Wrap [3]bool
	// Axes says which axes the collective spans; none set means every
	// axis longer than 1.
	Axes [3]bool
}

// Set reports whether the grid is given (Config.Torus).
func (g Grid) Set() bool { return g.Dims[0] > 0 }

// chips is the grid's chip count.
func (g Grid) chips() int { return g.Dims[0] * g.Dims[1] * g.Dims[2] }

// spanned is the axes the collective runs over, x first.
func (g Grid) spanned() []int {
	var ax []int
	all := !g.Axes[0] && !g.Axes[1] && !g.Axes[2]
	for a := range g.Dims {
		if (all && g.Dims[a] > 1) || g.Axes[a] {
			ax = append(ax, a)
		}
	}
	return ax
}

// Group is N, the chips of one group: the product of the spanned axes.
func (g Grid) Group() int { return g.group() }

// group is Group.
func (g Grid) group() int {
	n := 1
	for _, a := range g.spanned() {
		n *= g.Dims[a]
	}
	return n
}

// Validate checks the grid: axes of 1..MaxRanks chips in all, a ring only
// on an axis of 3 or more, and the spanned axes longer than 1.
func (g Grid) Validate() error {
	for a, n := range g.Dims {
		switch {
		case n < 1:
			return fmt.Errorf("torus: %v chips; want at least 1 along each axis", g.Dims)
		case g.Wrap[a] && n < 3:
			return fmt.Errorf("torus: axis %c of %d chips cannot wrap (a ring needs 3)", "xyz"[a], n)
		case g.Axes[a] && n < 2:
			return fmt.Errorf("torus: the collective spans axis %c, which has %d chip; want 2 or more", "xyz"[a], n)
		}
	}
	if g.chips() > MaxRanks {
		return fmt.Errorf("torus: %d chips is more than %d", g.chips(), MaxRanks)
	}
	if len(g.spanned()) == 0 {
		return fmt.Errorf("torus: %v has no axis of 2 or more chips to run over", g.Dims)
	}
	return nil
}

// axisSteps is the steps of one axis's bidirectional ring of n chips:
// ⌈(n−1)/2⌉ with wraparound (each block goes half-way round each way), n−1
// along a line (a block from one end must reach the other).
func axisSteps(n int, wrap bool) int {
	if wrap {
		return n / 2
	}
	return n - 1
}

// axisTime is the closed form of one axis's bidirectional all-gather of
// blocks of b bytes per chip on n chips (the scaling book, Part 3, 'How is
// an AllGather actually performed?'): on a ring every chip sends its block
// both ways, ⌈(n−1)/2⌉ hops of α + b/B, the last of an even ring carrying
// half a block each way, so
//
//	⌈(n−1)/2⌉·α + (n−1)/2 · b/B;
//
// on a line without wraparound the block from an end must cross all n−1
// links one way, (n−1)·(α + b/B): twice the bandwidth term.
func axisTime(n int, wrap bool, b float64, alpha units.Time, bw units.Bandwidth) float64 {
	nf := float64(n)
	if wrap {
		return float64(n/2)*alpha.Seconds() + (nf-1)/2*b/float64(bw)
	}
	return (nf - 1) * (alpha.Seconds() + b/float64(bw))
}

// TorusTime is the closed-form time of a torus all-gather, reduce-scatter
// or all-reduce of S bytes (as Schedule.Bytes) over the spanned axes of g
// (TorusSchedule): the buffer is cut into k parts, one per spanned axis,
// part j gathered over the axes in turn starting from the j-th, all parts
// at once, so that in every phase each axis's links carry one part (the
// book's 'using all axes': k times the bandwidth of one). A phase ends when
// its slowest part does:
//
//	T_AG = Σ_p max_j axisTime(n_{a(j,p)}, S/(N·k) · Π_{i<p} n_{a(j,i)}),
//
// with a(j,p) the axis of part j in phase p and N the chips of a group;
// reduce-scatter takes the same time, all-reduce (reduce-scatter then
// all-gather) twice it.
func TorusTime(op string, g Grid, s units.Bytes, alpha units.Time, bw units.Bandwidth) float64 {
	ax := g.spanned()
	k, n := len(ax), g.group()
	if k == 0 || n < 2 || s <= 0 {
		return 0
	}
	total := 0.0
	for p := 0; p < k; p++ {
		worst := 0.0
		for j := 0; j < k; j++ {
			b := float64(s) / float64(n*k)
			for i := 0; i < p; i++ {
				b *= float64(g.Dims[ax[(j+i)%k]])
			}
			a := ax[(j+p)%k]
			worst = max(worst, axisTime(g.Dims[a], g.Wrap[a], b, alpha, bw))
		}
		total += worst
	}
	if op == string(OpAllReduce) {
		return 2 * total
	}
	return total
}

// TorusMessages bounds the messages of TorusSchedule: every chip sends
// both ways at every step of every part's phase (a line sends fewer), twice
// for an all-reduce.
func TorusMessages(op string, g Grid) float64 {
	ax := g.spanned()
	steps := 0
	for range ax {
		for _, a := range ax {
			steps += axisSteps(g.Dims[a], g.Wrap[a])
		}
	}
	m := 2 * float64(g.chips()*steps)
	if op == string(OpAllReduce) {
		return 2 * m
	}
	return m
}

// TorusSchedule is the torus collective op (all_gather, reduce_scatter or
// all_reduce) of S bytes on g, as TorusTime prices it. The buffer is laid
// out part-major: part j holds S/k bytes, in which chip c's piece sits at
// its index along part j's axis order (its first axis fastest), so that
// every block a phase sends is one contiguous range; Chunk is the piece
// index j·N + the block's first. Each chip starts a phase when it has all
// of the previous phase's data (every part); the reduce-scatter is the
// all-gather run backwards with the sums made on the way.
func TorusSchedule(op Op, g Grid, s units.Bytes) (Schedule, error) {
	if err := g.Validate(); err != nil {
		return Schedule{}, err
	}
	sch := Schedule{Op: op, Algorithm: "torus", Ranks: g.chips(), Bytes: s}
	if g.group() < 2 || s <= 0 {
		return sch, nil
	}
	switch op {
	case OpAllGather:
		return torusGather(g, s, 0, nil, sch), nil
	case OpReduceScatter:
		return reversed(torusGather(g, s, 0, nil, sch)), nil
	case OpAllReduce:
		rs := reversed(torusGather(g, s, 0, nil, sch))
		return torusGather(g, s, rs.Steps, finalReceives(rs), rs), nil
	}
	return Schedule{}, fmt.Errorf("torus: %s is not a torus collective; want all_gather, reduce_scatter or all_reduce", op)
}

// finalReceives is, per rank, the transfers into it that no later transfer
// of the schedule waits for: the pieces it ends with.
func finalReceives(sch Schedule) [][]int {
	used := make([]bool, len(sch.Transfers))
	for i := range sch.Transfers {
		for _, d := range sch.Transfers[i].After {
			used[d] = true
		}
	}
	out := make([][]int, sch.Ranks)
	for i := range sch.Transfers {
		if !used[i] {
			out[sch.Transfers[i].Dst] = append(out[sch.Transfers[i].Dst], i)
		}
	}
	return out
}

// reversed runs an all-gather backwards as a reduce-scatter: the same
// ranges over the same links in the opposite direction, in reverse step
// order, each message waiting for the ones that, in the all-gather, waited
// for it.
func reversed(ag Schedule) Schedule {
	n := len(ag.Transfers)
	rs := ag
	rs.Op = OpReduceScatter
	rs.Transfers = make([]Transfer, n)
	for i, t := range ag.Transfers {
		r := t
		r.Src, r.Dst, r.Step = t.Dst, t.Src, ag.Steps-1-t.Step
		r.Phase, r.Reduce, r.After = PhaseReduceScatter, true, nil
		rs.Transfers[n-1-i] = r
	}
	for i, t := range ag.Transfers {
		for _, d := range t.After {
			rs.Transfers[n-1-d].After = append(rs.Transfers[n-1-d].After, n-1-i)
		}
	}
	return rs
}
