package scene

import (
	"math"

	"paraplay/sim/timeline"
)

// torusGrid finds the 2D torus (or mesh) the GPU-to-GPU links of tl form,
// with GPU ids running x fastest, as a TPU slice numbers its chips: the
// smallest row length x, 1 < x < n, for which every link joins two
// neighbours of a row (x-neighbours, or the row's ends: its wraparound) or
// of a column, with links along both axes. It returns 0, 0 for anything
// else (a ring, a 3D torus, a run with switches), which the ring layout
// draws.
func torusGrid(tl *timeline.Timeline) (x, y int) {
	n := len(tl.GPUs)
	if n < 4 || len(tl.Switches) > 0 || len(tl.Links) == 0 {
		return 0, 0
	}
	for x = 2; x <= n/2; x++ {
		if n%x != 0 {
			continue
		}
		if gridFits(tl, x, n/x) {
			return x, n / x
		}
	}
	return 0, 0
}

// gridFits reports whether every link of tl joins grid neighbours of an
// x × y grid (with wraparound), some along each axis.
func gridFits(tl *timeline.Timeline, x, y int) bool {
	n := x * y
	var along [2]bool
	for _, l := range tl.Links {
		a, b := l.From, l.To
		if a < 0 || b < 0 || a >= n || b >= n {
			return false
		}
		ax, ay, bx, by := a%x, a/x, b%x, b/x
		dx, dy := abs(ax-bx), abs(ay-by)
		switch {
		case ay == by && (dx == 1 || dx == x-1):
			along[0] = true
		case ax == bx && (dy == 1 || dy == y-1):
			along[1] = true
		default:
			return false
		}
	}
	return along[0] && along[1]
}

func abs(v int) int { return max(v, -v) }

// layoutGrid puts the chips of an x × y torus in a grid, x along the
// canvas (or, for a grid taller than wide, y along it: the grid on its
// side, each id-row a canvas column, so the chips keep a landscape
// canvas's room), between top and bottom. A link between neighbours is a
// short segment; a wraparound link (a row's or a column's two ends) runs
// beside its row or column, in the gap to the next, from one end to the
// other, so that each axis's ring can be followed by eye. rx and ry stay
// 0: the middle holds chips, not the ring's caption.
func layoutGrid(tl *timeline.Timeline, x, y int, top, bottom, w, s float64) ringLayout {
	n := x * y
	side := y > x
	cols, rows := x, y
	if side {
		cols, rows = y, x
	}
	left, right := 12*s, w-12*s
	cw, ch := (right-left)/float64(cols), (bottom-top)/float64(rows)
	bw, bh := max(2, min(100*s, 0.55*cw)), max(2, min(56*s, 0.55*ch))
	g := ringLayout{cx: make([]float64, n), cy: make([]float64, n), bw: bw, bh: bh}
	for i := range n {
		gx, gy := i%x, i/x
		if side {
			gx, gy = gy, gx
		}
		g.cx[i] = left + (float64(gx)+0.5)*cw
		g.cy[i] = top + (float64(gy)+0.5)*ch
	}
	rowOff, colOff := bh/2+(ch-bh)/4, bw/2+(cw-bw)/4 // beside a canvas row, a canvas column
	if side {
		rowOff, colOff = colOff, rowOff
	}
	g.segs = make([]segment, len(tl.Links))
	for i, l := range tl.Links {
		a, b := l.From, l.To
		dx, dy := abs(a%x-b%x), abs(a/x-b/x)
		switch {
		case x > 2 && dx == x-1: // a row's wraparound, beside the row
			g.segs[i] = g.wrapSegment(a, b, rowOff)
		case y > 2 && dy == y-1: // a column's wraparound, beside the column
			g.segs[i] = g.wrapSegment(a, b, colOff)
		default:
			g.segs[i] = g.segment(a, b, 3*s)
		}
	}
	return g
}

// wrapSegment runs centre to centre from a to b shifted by off (to the
// right of travel), which is more than half a box: the line passes beside
// the boxes between them, and the two directions of a pair of wraparound
// links on either side of their row or column.
func (g ringLayout) wrapSegment(a, b int, off float64) segment {
	dx, dy := g.cx[b]-g.cx[a], g.cy[b]-g.cy[a]
	d := math.Hypot(dx, dy)
	if d == 0 {
		return segment{}
	}
	ox, oy := -dy/d*off, dx/d*off
	return segment{g.cx[a] + ox, g.cy[a] + oy, g.cx[b] + ox, g.cy[b] + oy, true}
}
