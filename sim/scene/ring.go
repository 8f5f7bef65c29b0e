package scene

import (
	"math"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// ringLayout places the GPU boxes and the link segments between them.
// ringMemo keeps the last ring layout of a Frames, which depends only on
// the run and the space it is given.
type ringMemo struct {
	top, bottom, w, s float64
	g                 ringLayout
	ok                bool
}

// ringOf is layoutRing, or the last frame's layout made for the same space.
func (f *Frames) ringOf(top, bottom, w, s float64) ringLayout {
	m := &f.ring
	if !m.ok || m.top != top || m.bottom != bottom || m.w != w || m.s != s {
		*m = ringMemo{top: top, bottom: bottom, w: w, s: s, g: layoutRing(f.tl, top, bottom, w, s), ok: true}
	}
	return m.g
}

type ringLayout struct {
	cx, cy []float64 // box centres, by GPU id
	bw, bh float64   // box size
	rx, ry float64   // radii of the ellipse the centres lie on
	segs   []segment // by link id
	// A torus's layout (layoutTorus) also keeps its chips along each
	// axis, the side of the blocks its chips are drawn in (1: one by
	// one), its planes, each link's axis (-1: none) and its marks.
	dims   [3]int
	block  int
	planes []box
	axis   []int8
	marks  []mark
}

// segment is a link drawn from the edge of its source box to the edge of its
// destination box; ok is false for links that cannot be drawn.
type segment struct {
	x1, y1, x2, y2 float64
	ok             bool
}

// at returns the point a fraction f of the way along the segment.
func (g segment) at(f float64) (x, y float64) {
	return g.x1 + f*(g.x2-g.x1), g.y1 + f*(g.y2-g.y1)
}

// layoutRing puts the GPUs evenly by angle on an ellipse (a circle stretched
// at most 2.2× to use a landscape canvas) between top and bottom, GPU 0 at
// the top and the ids running clockwise, with boxes as large as the spacing
// allows.
func layoutRing(tl *timeline.Timeline, top, bottom, w, s float64) ringLayout {
	if d := torusDims(tl); d[0] > 0 {
		return layoutTorus(tl, d, top, bottom, w, s)
	}
	n := len(tl.GPUs)
	halfW, halfH := w/2-12*s, (bottom-top)/2
	maxW, maxH := 100*s, 56*s
	bw, bh := maxW, maxH
	var rx, ry float64
	if n > 1 {
		dθ := 2 * math.Pi / float64(n)
		for range 4 {
			ry = max(0, halfH-bh/2-4*s)
			rx = max(0, min(halfW-bw/2, 2.2*ry))
			bw, bh = min(maxW, 0.75*rx*dθ), min(maxH, 0.65*ry*dθ)
		}
		bw, bh = max(bw, 2), max(bh, 2)
	}
	g := ringLayout{cx: make([]float64, n), cy: make([]float64, n), bw: bw, bh: bh, rx: rx, ry: ry}
	for i := range n {
		θ := -math.Pi/2 + 2*math.Pi*float64(i)/float64(n)
		g.cx[i] = w/2 + rx*math.Cos(θ)
		g.cy[i] = (top+bottom)/2 + ry*math.Sin(θ)
	}
	g.segs = make([]segment, len(tl.Links))
	for i, l := range tl.Links {
		g.segs[i] = g.segment(l.From, l.To, 3*s)
	}
	return g
}

// segment runs from box a to box b, shifted off the centre line by off to
// the right of the direction of travel, so that the two directions of a
// pair of links show side by side.
func (g ringLayout) segment(a, b int, off float64) segment {
	n := len(g.cx)
	if a < 0 || b < 0 || a >= n || b >= n || a == b {
		return segment{}
	}
	dx, dy := g.cx[b]-g.cx[a], g.cy[b]-g.cy[a]
	d := math.Hypot(dx, dy)
	if d == 0 {
		return segment{}
	}
	// Screen y grows downwards, so (−dy, dx) points to the right of travel.
	ox, oy := -dy/d*off, dx/d*off
	x1, y1 := g.cx[a]+ox, g.cy[a]+oy
	x2, y2 := g.cx[b]+ox, g.cy[b]+oy
	gap := 3.0
	f1 := exitBox(x1, y1, dx, dy, g.cx[a], g.cy[a], g.bw/2+gap, g.bh/2+gap)
	f2 := 1 - exitBox(x2, y2, -dx, -dy, g.cx[b], g.cy[b], g.bw/2+gap, g.bh/2+gap)
	if f1 >= f2 { // boxes touch: run centre to centre
		f1, f2 = 0, 1
	}
	return segment{x1 + f1*dx, y1 + f1*dy, x1 + f2*dx, y1 + f2*dy, true}
}

// exitBox returns the smallest f >= 0 at which (x, y) + f·(dx, dy) leaves
// the box centred at (cx, cy) with half-sizes hw, hh.
func exitBox(x, y, dx, dy, cx, cy, hw, hh float64) float64 {
	f := math.Inf(1)
	if dx > 0 {
		f = min(f, (cx+hw-x)/dx)
	} else if dx < 0 {
		f = min(f, (cx-hw-x)/dx)
	}
	if dy > 0 {
		f = min(f, (cy+hh-y)/dy)
	} else if dy < 0 {
		f = min(f, (cy-hh-y)/dy)
	}
	return max(0, f)
}

// links draws every drawable link, green and thicker while it carries a
// transfer at t, with an arrowhead at its destination end.
func (b *builder) links(tl *timeline.Timeline, g ringLayout, t units.Time) {
	busy := b.f.busyBuf[:0]
	if cap(busy) < len(tl.Links) {
		busy = make([]bool, len(tl.Links))
	}
	busy = busy[:len(tl.Links)]
	clear(busy)
	b.f.busyBuf = busy
	for _, i := range b.live {
		for _, id := range tl.Transfers.At(int(i)).Path {
			if id >= 0 && id < len(busy) {
				busy[id] = true
			}
		}
	}
	var axisBusy [3]bool
	if g.axis != nil {
		axisBusy = b.collectiveLinks(tl, g, t, busy)
		if g.block > 1 { // every link is a mark's
			b.marks(g, axisBusy)
			return
		}
	}
	for i, sg := range g.segs {
		if !sg.ok || g.marked(i) {
			continue
		}
		c, width := colLink, 1.5*b.s
		if busy[i] {
			c, width = stateStyle[Communicating].fill, 3.5*b.s
			if g.axis != nil && g.axis[i] >= 0 {
				c = axisColors[g.axis[i]]
			}
		}
		b.line(b.f.ids.link.at(i), sg.x1, sg.y1, sg.x2, sg.y2, c, width)
		b.arrowhead(i, sg, c, width)
	}
	if g.axis != nil {
		b.marks(g, axisBusy)
	}
}

// arrowhead draws two short strokes at the end of link i's segment sg, if
// it is long enough.
func (b *builder) arrowhead(i int, sg segment, c Color, width float64) {
	dx, dy := sg.x2-sg.x1, sg.y2-sg.y1
	d := math.Hypot(dx, dy)
	size := 7 * b.s
	if d < 3*size {
		return
	}
	ux, uy := dx/d, dy/d
	for k, side := range [2]float64{1, -1} {
		// Rotate the backwards direction by ±30°.
		hx := -ux*0.866 - side*uy*0.5
		hy := -uy*0.866 + side*ux*0.5
		id := b.f.ids.linkHeadA.at(i)
		if k == 1 {
			id = b.f.ids.linkHeadB.at(i)
		}
		b.line(id, sg.x2, sg.y2, sg.x2+hx*size, sg.y2+hy*size, c, width)
	}
}

// gpus draws the GPU boxes, all bw×bh and centred on (cx[i], cy[i]), filled
// by state, with a name and an activity line when the box is large enough
// to hold them.
func (b *builder) gpus(tl *timeline.Timeline, cx, cy []float64, bw, bh float64, acts []activity) {
	nameSize, stateSize := b.size(min(13*b.fs, bh*0.36)), b.size(min(11*b.fs, bh*0.3))
	twoLines := bh >= nameSize+stateSize+8*b.s
	for i := range cx {
		if math.IsNaN(cx[i]) {
			continue // inside a torus's block, drawn by its first chip
		}
		id := b.f.ids.gpu.at(i)
		a := acts[i]
		fill, text := a.state.fill(), a.state.textColor()
		if a.state == Forward && a.span != nil {
			if j := measuredClass(a.span.Kind); j > 0 {
				fill, text = measuredKinds[j].fill, colDarkText // a measured kernel's class; GEMMs (0) keep compute's blue
			}
		}
		box := b.rect(id, cx[i]-bw/2, cy[i]-bh/2, bw, bh, fill)
		// A box under 8 px wide keeps its outline only when idle, whose
		// light grey would otherwise melt into the node behind it: at 512
		// GPUs the outlines were a fifth of the frame's quads.
		if bw >= 8*b.s || a.state == Idle {
			box.Stroke, box.StrokeWidth = colBoxEdge, min(1, bw/8)
		}
		name := b.f.gpuName(i)
		if (b.f.training || b.compact) && b.wide(name, nameSize) > bw-4 {
			name = b.f.ids.number.at(i) // a narrow box in a training run keeps its number
		}
		if nameSize < 7 || b.wide(name, nameSize) > bw-4 {
			continue
		}
		nameY := cy[i] + nameSize*0.35
		if twoLines {
			nameY = cy[i] - 2*b.s
		}
		b.text(b.f.ids.gpuLabel.at(i), cx[i], nameY, name, nameSize, text, AnchorMiddle).Bold = true
		if !twoLines {
			continue
		}
		if label := a.label(); textWidth(label, stateSize) <= bw-4 {
			b.text(b.f.ids.gpuState.at(i), cx[i], nameY+stateSize+4*b.s, label, stateSize, text, AnchorMiddle)
		} else if a.span != nil && a.span.Label != "" && textWidth(a.span.Label, stateSize) <= bw-4 {
			b.text(b.f.ids.gpuState.at(i), cx[i], nameY+stateSize+4*b.s, a.span.Label, stateSize, text, AnchorMiddle)
		} else if a.span != nil && b.f.tl.Fidelity == timeline.Measured && textWidth(string(a.span.Kind), stateSize) <= bw-4 {
			// a kernel's name too long for the box: its class
			b.text(b.f.ids.gpuState.at(i), cx[i], nameY+stateSize+4*b.s, string(a.span.Kind), stateSize, text, AnchorMiddle)
		}
	}
}

// chunks draws a square for every transfer in flight at t, at the fraction
// of its bytes sent so far along its link (the time fraction when it has no
// rates), filled by chunk index and outlined by phase. Only one-link paths
// are drawn on the ring layout.
func (b *builder) chunks(tl *timeline.Timeline, g ringLayout, t units.Time) {
	size := max(4, min(18*b.s, g.bh*0.45))
	for _, i := range b.live {
		x := tl.Transfers.At(int(i))
		link := x.Link()
		if len(x.Path) != 1 || link < 0 || link >= len(g.segs) || !g.segs[link].ok {
			continue
		}
		f := float64(t-x.Start) / float64(x.End-x.Start)
		if len(x.Rates) > 0 && x.Bytes > 0 {
			f = x.BytesAt(t) / float64(x.Bytes)
		}
		px, py := g.segs[link].at(f)
		id := b.f.ids.xfer.at(i)
		if b.f.training {
			sq := b.rect(id, px-size/2, py-size/2, size, size, trafficColor(b.f.look.traffic(tl, x)))
			sq.Stroke, sq.StrokeWidth = colBoxEdge, max(0.5, b.s)
			continue
		}
		sq := b.rect(id, px-size/2, py-size/2, size, size, chunkColor(x.Chunk))
		sq.Stroke, sq.StrokeWidth = phaseColor(x.Phase), max(1, 2*b.s)
		if size >= 12 {
			b.text(b.f.ids.xferLabel.at(i), px, py+size*0.3, b.f.ids.number.at(x.Chunk), size*0.65, colDarkText, AnchorMiddle)
		}
	}
}

// caption names, in the middle of the ring, the collective step in flight
// at t (taken from the first active transfer of a collective), so a reader
// can tell reduce-scatter from all-gather without the legend.
func (b *builder) caption(tl *timeline.Timeline, g ringLayout, t units.Time, top, bottom float64) {
	if len(g.cx) < 3 {
		return // the centre holds a box or a link
	}
	for _, i := range b.live {
		x := tl.Transfers.At(int(i))
		if x.Collective < 0 || x.Collective >= len(tl.Collectives) {
			continue
		}
		c := &tl.Collectives[x.Collective]
		name := c.Name.Label()
		if c.Algorithm != "" {
			name = c.Algorithm + " " + name
		}
		detail := "step " + itoa(x.Step+1)
		if x.Phase != "" {
			detail = x.Phase + ", " + detail
		}
		room := 2*(g.rx-g.bw/2) - 16*b.s
		cy := (top + bottom) / 2
		if 2*g.ry-g.bh < 40*b.fs {
			return // no room between the top and bottom boxes
		}
		b.text("caption", b.vw/2, cy-2*b.s, truncate(name, 14*b.fs, room), 14*b.fs, colText, AnchorMiddle).Bold = true
		b.text("caption/detail", b.vw/2, cy+16*b.fs, truncate(detail, 12*b.fs, room), 12*b.fs, colMuted, AnchorMiddle)
		return
	}
}
