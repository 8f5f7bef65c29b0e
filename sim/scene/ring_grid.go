package scene

import (
	"math"

	"paraplay/sim/timeline"
)

// torusDims finds the torus (or mesh) of one, two or three axes that the
// GPU-to-GPU links of tl form, with GPU ids running through the axes in
// order, the first fastest, as a TPU slice numbers its chips: the
// smallest row length x, 1 < x < n, then the smallest column length y,
// for which every link joins two neighbours along one axis (or that
// axis's ends: its wraparound), with links along every axis. A 2D fit is
// preferred to a 3D one (z is then 1). It returns zeros for anything else
// (a ring, a run with switches, a twisted torus), which the ring layout
// draws.
func torusDims(tl *timeline.Timeline) [3]int {
	n := len(tl.GPUs)
	if n < 4 || len(tl.Switches) > 0 || len(tl.Links) == 0 {
		return [3]int{}
	}
	for _, flat := range [2]bool{true, false} {
		for x := 2; x <= n/2; x++ {
			if n%x != 0 {
				continue
			}
			for y := 2; y <= n/x; y++ {
				if m := n / x; m%y != 0 || flat != (y == m) {
					continue
				}
				if d := [3]int{x, y, n / (x * y)}; gridFits(tl, d) {
					return d
				}
			}
		}
	}
	return [3]int{}
}

// coords is chip id's position on a torus of dims, x fastest.
func coords(id int, d [3]int) [3]int {
	return [3]int{id % d[0], id / d[0] % d[1], id / (d[0] * d[1])}
}

// linkAxis is the axis along which a and b are neighbours on dims (or
// its ends, the wraparound), and whether the link wraps; -1 when they
// are not neighbours.
func linkAxis(a, b int, d [3]int) (axis int, wraps bool) {
	ca, cb := coords(a, d), coords(b, d)
	axis = -1
	for k := range ca {
		if ca[k] == cb[k] {
			continue
		}
		dk := abs(ca[k] - cb[k])
		if axis >= 0 || dk != 1 && dk != d[k]-1 {
			return -1, false
		}
		axis, wraps = k, d[k] > 2 && dk == d[k]-1
	}
	return axis, wraps
}

// gridFits reports whether every link of tl joins neighbours of a torus
// of dims, some along each axis longer than 1.
func gridFits(tl *timeline.Timeline, d [3]int) bool {
	n := d[0] * d[1] * d[2]
	var along [3]bool
	for _, l := range tl.Links {
		if l.From < 0 || l.To < 0 || l.From >= n || l.To >= n {
			return false
		}
		k, _ := linkAxis(l.From, l.To, d)
		if k < 0 {
			return false
		}
		along[k] = true
	}
	return along[0] && along[1] && (along[2] || d[2] == 1)
}

func abs(v int) int { return max(v, -v) }

// wrapSegment runs centre to centre from a to b shifted by off (to the
// right of travel), which is more than half a box: the line passes beside
// the boxes between them, and the two directions of a pair of wraparound
// links on either side of their row or column.
func (g ringLayout) wrapSegment(a, b int, off float64) segment {
	return shifted(g.cx[a], g.cy[a], g.cx[b], g.cy[b], off)
}

// shifted is the segment from (x1, y1) to (x2, y2) moved by off to the
// right of travel.
func shifted(x1, y1, x2, y2, off float64) segment {
	dx, dy := x2-x1, y2-y1
	d := math.Hypot(dx, dy)
	if d == 0 {
		return segment{}
	}
	ox, oy := -dy/d*off, dx/d*off
	return segment{x1 + ox, y1 + oy, x2 + ox, y2 + oy, true}
}
