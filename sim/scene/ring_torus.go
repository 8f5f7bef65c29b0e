package scene

import (
	"math"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// mark is a line standing for many links of one torus axis (0 x, 1 y,
// 2 z): the z links between two planes, or a plane's x or y rings when its
// chips are drawn in blocks.
type mark struct {
	seg  segment
	axis int8
	_    [0]func() // not comparable: no equality function in the wasm
}

// layoutTorus puts the chips of a torus of dims (ids x fastest, see
// torusDims) on the canvas as its z planes, each an x × y grid (on its
// side when taller than wide: each id-row a canvas column, so the chips
// keep a landscape canvas's room), the planes side by side in rows in
// reading order, as many to a row as gives the chips the most room. A 2D
// torus is one plane filling the space.
//
// Within a plane a link between neighbours is a short segment, and a
// wraparound link runs beside its row or column from one end to the
// other, so each axis's ring can be followed by eye. The z links are not
// drawn one by one (they would cross the planes between): a pair of
// marks between consecutive planes stands for them, and a pair along the
// top, from the last plane back to the first, for z's wraparound.
//
// When a chip would get under 8 px, the chips are drawn in blocks of
// k × k (k a power of two; only each block's first chip has a box, the
// others' centres are NaN) and each plane's x and y links are marks along
// its top and left side instead: a whole v5p pod (16 × 20 × 28 chips) is
// 28 planes of 4 × 5 blocks, 560 boxes, at the frame rate of a 64-GPU
// run. rx and ry stay 0: the middle holds chips, not the ring's caption.
func layoutTorus(tl *timeline.Timeline, d [3]int, top, bottom, w, s float64) ringLayout {
	cols, rows := d[0], d[1]
	side := rows > cols
	if side {
		cols, rows = rows, cols
	}
	hgap, vgap := 24*s, 20*s
	top += 16 * s // the axes' key runs above the planes
	if d[2] > 1 {
		top += 10 * s // and z's wraparound
	}
	planes := planeBoxes(d[2], cols, rows, box{12 * s, top, w - 12*s, bottom}, hgap, vgap)
	cw, ch := planes[0].w()/float64(cols), planes[0].h()/float64(rows)
	k := 1
	for min(cw, ch)*float64(k) < 8*s && k < max(cols, rows) {
		k *= 2
	}
	n := len(tl.GPUs)
	g := ringLayout{cx: make([]float64, n), cy: make([]float64, n), dims: d, block: k, planes: planes,
		bw: max(2, min(100*s, 0.55*cw)), bh: max(2, min(56*s, 0.55*ch))}
	if k > 1 {
		g.bw, g.bh = 0.8*float64(k)*cw, 0.8*float64(k)*ch
	}
	for i := range n {
		c := coords(i, d)
		gx, gy := c[0], c[1]
		if side {
			gx, gy = gy, gx
		}
		r := planes[c[2]]
		if gx%k != 0 || gy%k != 0 {
			g.cx[i], g.cy[i] = math.NaN(), math.NaN()
			continue
		}
		g.cx[i] = r.x0 + float64(gx+min(gx+k, cols))/2*cw
		g.cy[i] = r.y0 + float64(gy+min(gy+k, rows))/2*ch
	}
	g.linkSegments(tl, side, cw, ch, s)
	g.torusMarks(tl, side, s)
	return g
}

// planeBoxes splits area into z boxes of cols × rows cells, in rows of
// planes hgap and vgap apart, as many to a row as makes the cells'
// shorter side longest, the rows running left to right and right to left
// in turn.
func planeBoxes(z, cols, rows int, area box, hgap, vgap float64) []box {
	best, pc := -1.0, 1
	for c := 1; c <= z; c++ {
		r := (z + c - 1) / c
		pw, ph := (area.w()-float64(c-1)*hgap)/float64(c), (area.h()-float64(r-1)*vgap)/float64(r)
		if cell := min(pw/float64(cols), ph/float64(rows)); cell > best {
			best, pc = cell, c
		}
	}
	pr := (z + pc - 1) / pc
	pw, ph := (area.w()-float64(pc-1)*hgap)/float64(pc), (area.h()-float64(pr-1)*vgap)/float64(pr)
	out := make([]box, z)
	for p := range out {
		c := p % pc
		if p/pc%2 == 1 {
			c = pc - 1 - c // every other row runs back: a row's last plane is over the next row's first
		}
		x, y := area.x0+float64(c)*(pw+hgap), area.y0+float64(p/pc)*(ph+vgap)
		out[p] = box{x, y, x + pw, y + ph}
	}
	return out
}

// linkSegments places each link: a neighbour segment or a wraparound
// beside its row or column within a plane drawn chip by chip; marked (not
// drawn one by one) along z and along every axis of a plane drawn in
// blocks. A z link's segment is its planes' mark, for the chunks it
// carries.
func (g *ringLayout) linkSegments(tl *timeline.Timeline, side bool, cw, ch, s float64) {
	rowOff, colOff := g.bh/2+(ch-g.bh)/4, g.bw/2+(cw-g.bw)/4 // beside a canvas row, a canvas column
	if side {
		rowOff, colOff = colOff, rowOff
	}
	g.segs = make([]segment, len(tl.Links))
	g.axis = make([]int8, len(tl.Links))
	for i, l := range tl.Links {
		a, b := l.From, l.To
		axis, wraps := linkAxis(a, b, g.dims)
		g.axis[i] = int8(axis)
		switch {
		case axis == 2:
			pa, pb := a/(g.dims[0]*g.dims[1]), b/(g.dims[0]*g.dims[1])
			g.segs[i] = g.zMark(pa, pb, s)
		case g.block > 1:
		case wraps && axis == 0:
			g.segs[i] = g.wrapSegment(a, b, rowOff)
		case wraps:
			g.segs[i] = g.wrapSegment(a, b, colOff)
		default:
			g.segs[i] = g.segment(a, b, 3*s)
		}
	}
}

// marked reports whether link i is drawn only through the marks.
func (g ringLayout) marked(i int) bool {
	return g.axis != nil && (g.axis[i] == 2 || g.block > 1 && g.axis[i] >= 0)
}

// zMark is the mark from plane a to plane b (consecutive, or the last and
// the first: z's wraparound, along the top), shifted 3 px to the right of
// travel so the two directions show side by side: across the gap between
// them, at mid-height or mid-width.
func (g ringLayout) zMark(a, b int, s float64) segment {
	last := len(g.planes) - 1
	pa, pb := g.planes[a], g.planes[b]
	var x1, y1, x2, y2 float64
	switch {
	case last > 1 && (a == last && b == 0 || b == last && a == 0):
		top := g.planes[0].y0 - 7*s
		x1, x2 = g.planes[0].x0, g.planes[0].x0
		for _, p := range g.planes {
			x2 = max(x2, p.x1)
		}
		if a == last {
			x1, x2 = x2, x1
		}
		return shifted(x1, top, x2, top, 3*s)
	case pa.y0 == pb.y0: // side by side, clear of a y mark left of a plane
		in, out := 3*s, 3*s
		if g.block > 1 {
			in, out = 6*s, 8*s
		}
		x1, x2 = pa.x1+in, pb.x0-out
		if pa.x0 > pb.x0 {
			x1, x2 = pa.x0-out, pb.x1+in
		}
		y1, y2 = pa.cy(), pb.cy()
	default: // one over the other, clear of an x mark above a plane
		x1, y1, x2, y2 = pa.cx(), pa.y1+3*s, pb.cx(), pb.y0-7*s
		if pa.y0 > pb.y0 {
			y1, y2 = pa.y0-7*s, pb.y1+3*s
		}
	}
	return shifted(x1, y1, x2, y2, 3*s)
}

// torusMarks lists the marks: one per direction between consecutive
// planes and for z's wraparound (where its links are), and, with the
// chips in blocks, each plane's x mark above it and y mark left of it.
func (g *ringLayout) torusMarks(tl *timeline.Timeline, side bool, s float64) {
	z, plane := g.dims[2], g.dims[0]*g.dims[1]
	seen := make([]bool, z*z) // by from-plane·z + to-plane
	for i, l := range tl.Links {
		if k := l.From/plane*z + l.To/plane; g.axis[i] == 2 && !seen[k] {
			seen[k] = true
			g.marks = append(g.marks, mark{seg: g.segs[i], axis: 2})
		}
	}
	if g.block == 1 {
		return
	}
	ax, ay := int8(0), int8(1) // the axes along a canvas row and column
	if side {
		ax, ay = 1, 0
	}
	for _, p := range g.planes {
		g.marks = append(g.marks, mark{seg: segment{p.x0, p.y0 - 4*s, p.x1, p.y0 - 4*s, true}, axis: ax},
			mark{seg: segment{p.x0 - 5*s, p.y1, p.x0 - 5*s, p.y0, true}, axis: ay})
	}
}

// axisColors are the colours of a torus's traffic along x, y and z: a
// link, or a mark, carrying data is drawn in its axis's colour.
var axisColors = [3]Color{{0xd6, 0x45, 0x50, 0xff}, {0x1f, 0x9e, 0x89, 0xff}, {0x8a, 0x56, 0xc8, 0xff}}

// collectiveLinks marks busy, on a torus, the links of every collective
// in flight at t that is recorded as one span (an analytic run's: it has
// no transfers): a link is busy when both its chips take part in the same
// one. It returns the axes with a busy link, these or those busy already
// (carrying a transfer).
func (b *builder) collectiveLinks(tl *timeline.Timeline, g ringLayout, t units.Time, busy []bool) (axes [3]bool) {
	n := len(g.cx)
	in := b.f.inColl
	if cap(in) < n {
		in = make([]int32, n)
	}
	in = in[:n]
	clear(in)
	b.f.inColl = in
	for k, c := range b.f.colls {
		if c.Start > t || t >= c.End {
			continue
		}
		for _, id := range c.GPUs {
			if id >= 0 && id < n {
				in[id] = int32(k + 1)
			}
		}
	}
	for i, l := range tl.Links {
		if l.From < n && l.To < n && in[l.From] != 0 && in[l.From] == in[l.To] {
			busy[i] = true
		}
		if a := g.axis[i]; busy[i] && a >= 0 {
			axes[a] = true
		}
	}
	return axes
}

// marks draws a torus's marks, each in its axis's colour while that axis
// carries data, and the key above the planes: each axis's colour with the
// way it runs on the canvas (by direction, not by name: the scene numbers
// the axes as the chip ids run, which a mesh layout may reorder).
func (b *builder) marks(g ringLayout, busy [3]bool) {
	for i, m := range g.marks {
		c, width := colLink, 1.5*b.s
		if busy[m.axis] {
			c, width = axisColors[m.axis], 3.5*b.s
		}
		b.line("torus/mark/"+itoa(i), m.seg.x1, m.seg.y1, m.seg.x2, m.seg.y2, c, width)
	}
	key := [3]string{"along rows", "along columns", "plane to plane"}
	if g.dims[1] > g.dims[0] { // on its side
		key[0], key[1] = key[1], key[0]
	}
	size, p := 11*b.fs, g.planes[0]
	x, y := p.x0, p.y0-5*b.s
	if g.dims[2] > 1 {
		y -= 12 * b.s // over z's wraparound
	}
	for _, p := range g.planes {
		x = max(x, p.x1)
	}
	if 1.2*textWidth(key[0]+key[1]+key[2], b.size(size))+28*b.s > x-p.x0 {
		key = [3]string{key[0][6:], key[1][6:], "planes"} // a narrow frame: "rows", "columns"
	}
	for k := min(2, g.dims[2]); k >= 0; k-- { // z only on a 3D torus
		b.text("torus/axis/"+itoa(k), x, y, key[k], size, axisColors[k], AnchorEnd).Bold = true
		x -= b.wide(key[k], size) + 14*b.s
	}
}
