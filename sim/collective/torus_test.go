//go:build !js

package collective

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"paraplay/sim/units"
)

// torusGrids are the shapes the torus tests run: 1D, 2D and 3D, all axes
// or some, rings and lines, 64 chips at most (a chip set is a uint64).
func torusGrids() []Grid {
	var gs []Grid
	for _, d := range [][3]int{{2, 1, 1}, {3, 1, 1}, {4, 1, 1}, {5, 1, 1}, {8, 1, 1}, {3, 3, 1}, {4, 4, 1}, {4, 8, 1}, {4, 4, 4}, {3, 4, 5}} {
		for _, axes := range [][3]bool{{}, {true, false, false}, {false, true, true}} {
			if (axes[1] && d[1] < 2) || (axes[2] && d[2] < 2) {
				continue
			}
			for _, wrap := range []bool{false, true} {
				g := Grid{Dims: d, Axes: axes}
				for a, n := range d {
					g.Wrap[a] = wrap && n >= 3
				}
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// TestTorusScheduleData replays every torus schedule segment by segment:
// a chip sends only what it holds at the start of the step, a sum never
// counts a chip twice, and at the end the all-gather leaves every chip its
// group's pieces, the reduce-scatter each chip its own pieces summed over
// its group, and the all-reduce every byte summed over the group.
func TestTorusScheduleData(t *testing.T) {
	for _, g := range torusGrids() {
		for _, op := range []Op{OpAllGather, OpReduceScatter, OpAllReduce} {
			for _, s := range []units.Bytes{960, 1001, 7} {
				sch, err := TorusSchedule(op, g, s)
				if err != nil {
					t.Fatalf("%v %s: %v", g, op, err)
				}
				if err := sch.Validate(); err != nil {
					t.Fatalf("%v %s: %v", g, op, err)
				}
				if err := replayTorus(g, 1, sch); err != nil {
					t.Errorf("%v %s %d B: %v", g, op, s, err)
				}
			}
		}
	}
}

// replayTorus is TestTorusScheduleData's replay: per chip and segment the
// set of chips whose data it holds (all-gather: the piece's owner; sums:
// every chip added in).
func replayTorus(g Grid, slices int, sch Schedule) error {
	cuts := []units.Bytes{0, sch.Bytes}
	for i := range sch.Transfers {
		for _, p := range sch.Pieces(i) {
			cuts = append(cuts, p.Offset, p.Offset+p.Bytes)
		}
	}
	cuts = sortedUnique(cuts)
	seg := func(off units.Bytes) int { i, _ := sortSearch(cuts, off); return i }
	ax, per, chips := g.spanned(), g.chips(), sch.Ranks
	own := func(c int) (segs []int) { // the segments of chip c's own pieces (over slices: its slice's chunk of them)
		for j := range ax {
			b := torusBlock(g, sch.Bytes, ax, j, 0, c%per)
			if slices > 1 && sch.Op != OpAllReduce {
				b.Offset, b.Bytes = b.Offset+ChunkOffset(b.Bytes, slices, c/per), ChunkBytes(b.Bytes, slices, c/per)
			}
			for i := seg(b.Offset); i < seg(b.Offset+b.Bytes); i++ {
				segs = append(segs, i)
			}
		}
		return segs
	}
	group := func(c int) (set uint64) {
		for d := 0; d < chips; d++ {
			same := true
			for a := range g.Dims {
				same = same && (slicesContain(ax, a) || coord(g, c%per, a) == coord(g, d%per, a))
			}
			same = same && (slices > 1 || c/per == d/per)
			if same {
				set |= 1 << d
			}
		}
		return set
	}
	held := make([][]uint64, chips)
	for c := range held {
		held[c] = make([]uint64, len(cuts)-1)
		if sch.Op != OpAllGather {
			for i := range held[c] {
				held[c][i] = 1 << c
			}
			continue
		}
		for _, i := range own(c) {
			held[c][i] = 1 << c
		}
	}
	if err := replaySteps(sch, held, cuts, seg); err != nil {
		return err
	}
	for c := 0; c < chips; c++ {
		want, segs := group(c), own(c)
		if sch.Op != OpReduceScatter {
			segs = segs[:0]
			for i := range held[c] {
				segs = append(segs, i)
			}
		}
		for _, i := range segs {
			got := held[c][i]
			if sch.Op == OpAllGather {
				if bits.OnesCount64(got) != 1 || got&want == 0 {
					return fmt.Errorf("chip %d ends holding %b at byte %d; want one chip of its group %b", c, got, cuts[i], want)
				}
				continue
			}
			if got != want {
				return fmt.Errorf("chip %d ends with byte %d summed over %b; want its group %b", c, cuts[i], got, want)
			}
		}
	}
	return nil
}

// TestTorusTimeBook checks TorusTime against the scaling book's own
// formulas (Part 3): a bidirectional all-gather over one ring costs about
// V/W_bidirectional, over k axes V/(k·W), and without wraparound twice.
func TestTorusTimeBook(t *testing.T) {
	const bw = 45 * units.GBps // one way; the book's W_ICI is 2·bw
	S := units.Bytes(64 * units.MiB)
	for _, c := range []struct {
		g    Grid
		want float64 // bandwidth term, α = 0
	}{
		{Grid{Dims: [3]int{16, 1, 1}, Wrap: [3]bool{true}}, float64(S) * 15 / 16 / (2 * float64(bw))},
		{Grid{Dims: [3]int{16, 1, 1}}, float64(S) * 15 / 16 / float64(bw)},
		{Grid{Dims: [3]int{16, 16, 1}, Wrap: [3]bool{true, true}}, float64(S) * 255 / 256 / (4 * float64(bw))},
		{Grid{Dims: [3]int{8, 8, 8}, Wrap: [3]bool{true, true, true}}, float64(S) * 511 / 512 / (6 * float64(bw))},
	} {
		if got := TorusTime("all_gather", c.g, S, 0, bw); got/c.want-1 > 1e-9 || c.want/got-1 > 1e-9 {
			t.Errorf("%v: TorusTime %.6g s, want %.6g s", c.g, got, c.want)
		}
	}
}

// The slices package under another name: replayTorus's slices counts the
// TPU slices.
var (
	slicesContain = slices.Contains[[]int]
	slicesClone   = slices.Clone[[]uint64]
	sortSearch    = slices.BinarySearch[[]units.Bytes]
)

func sortedUnique(b []units.Bytes) []units.Bytes { slices.Sort(b); return slices.Compact(b) }

// TestTorusSlicesSchedule replays the multi-slice collectives byte by
// byte: after the all-reduce every chip holds every byte summed over its
// group in every slice; after the reduce-scatter chip c of slice s holds
// chunk s of its torus pieces so summed; the all-gather starts from those
// chunks and leaves every chip every byte, each from one chip of its
// group.
func TestTorusSlicesSchedule(t *testing.T) {
	for _, g := range torusGrids() {
		for _, m := range []int{2, 3} {
			if g.chips()*m > 64 {
				continue
			}
			for _, op := range []Op{OpAllReduce, OpReduceScatter, OpAllGather} {
				for _, s := range []units.Bytes{960, 1001, 7} {
					sch, err := TorusSlicesSchedule(op, g, m, s)
					if err != nil {
						t.Fatalf("%v × %d %s: %v", g, m, op, err)
					}
					if err := sch.Validate(); err != nil {
						t.Fatalf("%v × %d %s: %v", g, m, op, err)
					}
					if err := replayTorus(g, m, sch); err != nil {
						t.Errorf("%v × %d slices %s, %d B: %v", g, m, op, s, err)
					}
				}
			}
		}
	}
}

// replaySteps plays sch's transfers step by step on held (per rank and
// segment, the set of chips whose data it holds): each step's messages
// read what their senders held when the step began.
func replaySteps(sch Schedule, held [][]uint64, cuts []units.Bytes, seg func(units.Bytes) int) error {
	for lo := 0; lo < len(sch.Transfers); {
		hi := lo
		for hi < len(sch.Transfers) && sch.Transfers[hi].Step == sch.Transfers[lo].Step {
			hi++
		}
		type msg struct {
			dst, from int
			data      []uint64
			reduce    bool
		}
		var msgs []msg
		for k, tr := range sch.Transfers[lo:hi] {
			for _, p := range sch.Pieces(lo + k) {
				a, b := seg(p.Offset), seg(p.Offset+p.Bytes)
				data := slicesClone(held[tr.Src][a:b])
				for i, d := range data {
					if d == 0 {
						return fmt.Errorf("step %d: chip %d sends bytes from %d it does not hold", tr.Step, tr.Src, cuts[a+i])
					}
				}
				msgs = append(msgs, msg{tr.Dst, a, data, tr.Reduce})
			}
		}
		for _, m := range msgs {
			for i, d := range m.data {
				cell := &held[m.dst][m.from+i]
				if m.reduce && *cell&d != 0 {
					return fmt.Errorf("chip %d counts chips %b twice", m.dst, *cell&d)
				}
				if m.reduce {
					*cell |= d
				} else {
					*cell = d
				}
			}
		}
		lo = hi
	}
	return nil
}
