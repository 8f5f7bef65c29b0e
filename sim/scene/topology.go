package scene

import (
	"math"
	"slices"

	"paraplay/sim/timeline"
)

// box is an axis-aligned rectangle given by its corners.
type box struct{ x0, y0, x1, y1 float64 }

func (r box) cx() float64 { return (r.x0 + r.x1) / 2 }
func (r box) cy() float64 { return (r.y0 + r.y1) / 2 }
func (r box) w() float64  { return r.x1 - r.x0 }
func (r box) h() float64  { return r.y1 - r.y0 }

// topoLayout places a timeline that has switches: every node (server) as a
// group box holding its GPUs in a grid and its own switches as a bar, the
// network's switches in rows below (leaves, then the spine), and every link
// as a segment between the boxes of its two vertices.
type topoLayout struct {
	verts      []box  // by vertex id: GPUs, then switches
	placed     []bool // by vertex id
	nodes      []nodeGroup
	gpuW, gpuH float64 // every GPU box has this size
	segs       []segment
	lens       []float64 // drawn length of segs, by link id
	// twin is, by link id, the link running the other way between the same
	// two vertices when the pair is drawn as one line (the two would lie
	// under a pixel apart), or -1. At 512 GPUs this halves the 2,000 link
	// lines, which cost software WebGL a quarter of a frame.
	twin []int

	// Worked out once per layout for the frames that reuse it.
	cx, cy   []float64 // GPU box centres, by GPU id
	linkID   []string  // by link id: "link/<i>", or "link/<i>+<j>" for a pair
	nodeGPUs [][]int   // by index in nodes, the placed GPUs of the node
}

// topoMemo keeps the last topology layout of a Frames: it depends only on
// the run and the space it is given, and at 512 GPUs making it anew was a
// frame's largest allocation.
type topoMemo struct {
	top, bottom, vw, s, fs float64
	L                      topoLayout
	ok                     bool
}

// nodeGroup is one node's box; label is false when it is too small to hold
// its name, else text is the name as it fits.
type nodeGroup struct {
	id    int
	r     box
	label bool
	text  string
}

// topoGroups sorts the vertices: the GPUs and switches of each node (in
// order of node id; a GPU with a negative node counts as node 0) and the
// network's switches in tiers, tier 1 holding the spines.
type topoGroups struct {
	ids      []int   // node ids in order
	gpus     [][]int // by node index
	switches [][]int // by node index, vertex ids
	tiers    [2][]int
	external bool // some GPU links to a vertex outside its node
}

func groupTopology(tl *timeline.Timeline) topoGroups {
	n := len(tl.GPUs)
	nodeOf := func(v int) int {
		if v < n {
			return max(tl.GPUs[v].Node, 0)
		}
		return tl.Switches[v-n].Node
	}
	index := map[int]int{}
	for v := range n + len(tl.Switches) {
		if id := nodeOf(v); id >= 0 {
			index[id] = 0
		}
	}
	var g topoGroups
	for id := range index {
		g.ids = append(g.ids, id)
	}
	slices.Sort(g.ids)
	for i, id := range g.ids {
		index[id] = i
	}
	g.gpus = make([][]int, len(g.ids))
	g.switches = make([][]int, len(g.ids))
	for v := range n + len(tl.Switches) {
		switch id := nodeOf(v); {
		case v < n:
			g.gpus[index[id]] = append(g.gpus[index[id]], v)
		case id >= 0:
			g.switches[index[id]] = append(g.switches[index[id]], v)
		case tl.Switches[v-n].Kind == "spine":
			g.tiers[1] = append(g.tiers[1], v)
		default:
			g.tiers[0] = append(g.tiers[0], v)
		}
	}
	nv := n + len(tl.Switches)
	for _, l := range tl.Links {
		if l.From >= 0 && l.From < n && l.To >= 0 && l.To < nv && nodeOf(l.To) != nodeOf(l.From) {
			g.external = true
			break
		}
	}
	return g
}

// nodeGrid is a choice of node columns and GPU columns, and the sizes that
// follow from it.
type nodeGrid struct {
	cols, rows      int // nodes
	gCols, gRows    int // GPUs in a node
	cellW, cellH    float64
	nodeW, nodeH    float64
	pad, label, bar float64
	barGap          float64
	gpuCellW        float64 // a GPU's cell, box plus spacing
	gpuCellH        float64
	bw, bh          float64
}

// gridFor sizes the node boxes and the GPU boxes in them for cols node
// columns and gCols GPU columns in an area w×h holding k nodes of at most
// g GPUs.
func (b *builder) gridFor(k, g, cols, gCols int, w, h float64, bars bool) nodeGrid {
	s := b.s
	d := nodeGrid{cols: cols, rows: (k + cols - 1) / cols, gCols: gCols, gRows: (g + gCols - 1) / gCols}
	d.cellW, d.cellH = w/float64(d.cols), h/float64(d.rows)
	d.nodeW, d.nodeH = d.cellW-min(10*s, d.cellW*0.1), d.cellH-min(10*s, d.cellH*0.1)
	d.pad = min(5*s, d.nodeW*0.05, d.nodeH*0.05)
	if d.nodeH >= 70*b.fs && d.nodeW >= 40*b.fs {
		d.label = 16 * b.fs
	}
	if bars {
		d.bar = min(max(d.nodeH*0.08, 2), 14*s)
		d.barGap = min(16*s, d.nodeH*0.1)
	}
	gridW := d.nodeW - 2*d.pad
	gridH := max(0, d.nodeH-2*d.pad-d.label-d.bar-d.barGap)
	d.gpuCellW, d.gpuCellH = gridW/float64(d.gCols), gridH/float64(d.gRows)
	d.bw = min(d.gpuCellW-min(8*s, d.gpuCellW*0.2), 100*s)
	d.bh = min(d.gpuCellH-min(8*s, d.gpuCellH*0.2), 56*s, 1.4*d.bw+16*s)
	return d
}

// score prefers large, not too slender GPU boxes; when cables leave the
// GPUs downwards (to a switch bar under them or to the network), every extra
// row of nodes or GPUs costs, since the cables of the upper rows would run
// behind the lower ones.
func (d nodeGrid) score(cables bool) float64 {
	v := min(d.bw, 2*d.bh) * min(d.bh, d.bw)
	if cables {
		v /= math.Pow(4, float64(d.rows-1+d.gRows-1))
	}
	return v
}

// layoutTopology places every vertex of tl between top and bottom, or
// returns the last frame's layout when it was made for the same space.
func (b *builder) layoutTopology(tl *timeline.Timeline, top, bottom float64) topoLayout {
	m := &b.f.topo
	if m.ok && m.top == top && m.bottom == bottom && m.vw == b.vw && m.s == b.s && m.fs == b.fs {
		return m.L
	}
	L := b.placeTopology(tl, top, bottom)
	L.cx, L.cy = make([]float64, len(tl.GPUs)), make([]float64, len(tl.GPUs))
	for i := range tl.GPUs {
		L.cx[i], L.cy[i] = L.verts[i].cx(), L.verts[i].cy()
	}
	L.linkID = make([]string, len(tl.Links))
	for i := range L.linkID {
		if j := L.twin[i]; j >= 0 {
			L.linkID[i] = "link/" + itoa(min(i, j)) + "+" + itoa(max(i, j))
		} else {
			L.linkID[i] = b.f.ids.link.at(i)
		}
	}
	index := map[int]int{} // node id → index in L.nodes
	for k := range L.nodes {
		index[L.nodes[k].id] = k
		if n := &L.nodes[k]; n.label {
			n.text = truncate(b.f.ids.nodeName.at(n.id), 11*b.fs, n.r.w()-8*b.s)
		}
	}
	L.nodeGPUs = make([][]int, len(L.nodes))
	for i := range tl.GPUs {
		if k, ok := index[max(tl.GPUs[i].Node, 0)]; ok && L.placed[i] {
			L.nodeGPUs[k] = append(L.nodeGPUs[k], i)
		}
	}
	*m = topoMemo{top: top, bottom: bottom, vw: b.vw, s: b.s, fs: b.fs, L: L, ok: true}
	return L
}

// placeTopology lays out tl between top and bottom.
func (b *builder) placeTopology(tl *timeline.Timeline, top, bottom float64) topoLayout {
	s := b.s
	g := groupTopology(tl)
	x0, x1 := 12*s, b.vw-12*s
	areaH := bottom - top
	nRows := 0
	for _, tier := range g.tiers {
		if len(tier) > 0 {
			nRows++
		}
	}
	swH := min(24*s, areaH*0.08)
	nodesH := areaH - float64(nRows)*(swH+max(28*s, areaH*0.12))
	bars, maxG := false, 1
	for i := range g.ids {
		maxG = max(maxG, len(g.gpus[i]))
		bars = bars || len(g.switches[i]) > 0
	}
	var best nodeGrid
	bestScore := -1.0
	k := max(len(g.ids), 1)
	for cols := 1; cols <= k; cols++ {
		for gCols := 1; gCols <= maxG; gCols++ {
			d := b.gridFor(k, maxG, cols, gCols, x1-x0, nodesH, bars)
			if sc := d.score(nRows > 0 || bars); sc > bestScore {
				best, bestScore = d, sc
			}
		}
	}
	L := topoLayout{verts: make([]box, len(tl.GPUs)+len(tl.Switches)), placed: make([]bool, len(tl.GPUs)+len(tl.Switches))}
	L.gpuW, L.gpuH = max(best.bw, 0), max(best.bh, 0)
	// Shrink the node boxes to what their content needs.
	need := 2*best.pad + best.label + best.bar + best.barGap + float64(best.gRows)*best.gpuCellH
	if best.gpuCellH > L.gpuH+16*s {
		need -= float64(best.gRows) * (best.gpuCellH - L.gpuH - 16*s)
		best.gpuCellH = L.gpuH + 16*s
	}
	if slack := best.nodeH - need; bars && nRows == 0 && slack > 0 {
		// Room to spare and no network below: longer cables to the
		// node's switch, so that what crosses them shows.
		extra := min(slack/2, 40*s)
		best.barGap, need = best.barGap+extra, need+extra
	}
	best.nodeH = min(best.nodeH, need)
	best.cellH = min(best.cellH, best.nodeH+min(10*s, best.cellH*0.1))
	bandH := float64(best.rows) * best.cellH
	nodesTop := top
	if nRows == 0 {
		nodesTop = top + (areaH-bandH)/2
	}
	for i := range g.ids {
		L.placeNode(tl, g, i, best, x0, nodesTop, bars && g.external)
	}
	L.placeTiers(g, x0, x1, nodesTop+bandH, bottom, swH, s)
	L.segs = make([]segment, len(tl.Links))
	L.lens = make([]float64, len(tl.Links))
	off := min(1.6*s, L.gpuW*0.12)
	for i, l := range tl.Links {
		L.segs[i] = L.segment(l.From, l.To, off, 1.5*s)
		if L.segs[i].ok {
			L.lens[i] = math.Hypot(L.segs[i].x2-L.segs[i].x1, L.segs[i].y2-L.segs[i].y1)
		}
	}
	L.twin = make([]int, len(tl.Links))
	for i := range L.twin {
		L.twin[i] = -1
	}
	if off < 0.8*s { // the pair's lines are under 1.6 pixels apart
		L.pairTwins(tl)
	}
	return L
}

// pairTwins finds, for each drawn link, the drawn link the other way
// between the same vertices (the first such, for parallel links).
func (L *topoLayout) pairTwins(tl *timeline.Timeline) {
	type ends struct{ from, to int }
	first := map[ends]int{}
	for i, l := range tl.Links {
		if !L.segs[i].ok {
			continue
		}
		if j, ok := first[ends{l.To, l.From}]; ok && L.twin[j] < 0 {
			L.twin[i], L.twin[j] = j, i
			continue
		}
		if _, ok := first[ends{l.From, l.To}]; !ok {
			first[ends{l.From, l.To}] = i
		}
	}
}

// placeNode puts node i's group box in its grid cell, its GPUs in rows
// inside and its switches as a bar under them, or over them when the GPUs
// have cables of their own to the network below (which would otherwise run
// across the bar).
func (L *topoLayout) placeNode(tl *timeline.Timeline, g topoGroups, i int, d nodeGrid, x0, top float64, barOnTop bool) {
	col, row := i%d.cols, i/d.cols
	cx0 := x0 + float64(col)*d.cellW + (d.cellW-d.nodeW)/2
	cy0 := top + float64(row)*d.cellH + (d.cellH-d.nodeH)/2
	r := box{cx0, cy0, cx0 + d.nodeW, cy0 + d.nodeH}
	L.nodes = append(L.nodes, nodeGroup{id: g.ids[i], r: r, label: d.label > 0})
	gridTop := r.y0 + d.pad + d.label
	barTop := r.y1 - d.pad - d.bar
	if barOnTop {
		barTop = gridTop
		gridTop += d.bar + d.barGap
	}
	gpus := g.gpus[i]
	for j, v := range gpus {
		c, rr := j%d.gCols, j/d.gCols
		inRow := min(d.gCols, len(gpus)-rr*d.gCols)
		left := r.cx() - float64(inRow)*d.gpuCellW/2
		cx := left + (float64(c)+0.5)*d.gpuCellW
		cy := gridTop + (float64(rr)+0.5)*d.gpuCellH
		L.put(v, box{cx - L.gpuW/2, cy - L.gpuH/2, cx + L.gpuW/2, cy + L.gpuH/2})
	}
	sw := g.switches[i]
	if len(sw) == 0 {
		return
	}
	barW := (d.nodeW - 2*d.pad) / float64(len(sw))
	for j, v := range sw {
		bx := r.x0 + d.pad + float64(j)*barW
		L.put(v, box{bx + min(2, barW*0.05), barTop, bx + barW - min(2, barW*0.05), barTop + d.bar})
	}
}

// placeTiers puts the network's switches in rows between top and bottom:
// the leaves, then the spines at the bottom.
func (L *topoLayout) placeTiers(g topoGroups, x0, x1, top, bottom, swH, s float64) {
	var rows [][]int
	for _, tier := range g.tiers {
		if len(tier) > 0 {
			rows = append(rows, tier)
		}
	}
	if len(rows) == 0 {
		return
	}
	gap := max(0, bottom-top-float64(len(rows))*swH) / float64(len(rows))
	for j, tier := range rows {
		y := top + float64(j+1)*gap + float64(j)*swH
		cellW := (x1 - x0) / float64(len(tier))
		bw := min(cellW*0.8, 120*s)
		for k, v := range tier {
			cx := x0 + (float64(k)+0.5)*cellW
			L.put(v, box{cx - bw/2, y, cx + bw/2, y + swH})
		}
	}
}

func (L *topoLayout) put(v int, r box) {
	if v >= 0 && v < len(L.verts) {
		L.verts[v], L.placed[v] = r, true
	}
}

// segment runs from vertex a's box to vertex b's, shifted off by off to the
// right of the direction of travel so that both directions of a cable show,
// and stopping gap short of each box. Boxes side by side or one above the
// other are joined by a straight horizontal or vertical run.
func (L *topoLayout) segment(a, b int, off, gap float64) segment {
	if a < 0 || b < 0 || a >= len(L.verts) || b >= len(L.verts) || a == b || !L.placed[a] || !L.placed[b] {
		return segment{}
	}
	ra, rb := L.verts[a], L.verts[b]
	ax, ay, bx, by := ra.cx(), ra.cy(), rb.cx(), rb.cy()
	nx, wx := narrower(ra, rb, box.w)
	ny, wy := narrower(ra, rb, box.h)
	if wx.x0 <= nx.cx() && nx.cx() <= wx.x1 && (ra.y1 <= rb.y0 || rb.y1 <= ra.y0) {
		ax, bx = nx.cx(), nx.cx()
	} else if wy.y0 <= ny.cy() && ny.cy() <= wy.y1 && (ra.x1 <= rb.x0 || rb.x1 <= ra.x0) {
		ay, by = ny.cy(), ny.cy()
	}
	dx, dy := bx-ax, by-ay
	d := math.Hypot(dx, dy)
	if d == 0 {
		return segment{}
	}
	ox, oy := -dy/d*off, dx/d*off
	x1, y1 := ax+ox, ay+oy
	f1 := exitBox(x1, y1, dx, dy, ra.cx(), ra.cy(), ra.w()/2+gap, ra.h()/2+gap)
	f2 := 1 - exitBox(bx+ox, by+oy, -dx, -dy, rb.cx(), rb.cy(), rb.w()/2+gap, rb.h()/2+gap)
	if f1 >= f2 {
		return segment{}
	}
	return segment{x1 + f1*dx, y1 + f1*dy, x1 + f2*dx, y1 + f2*dy, true}
}

// narrower returns the box with the smaller size, then the other.
func narrower(a, b box, size func(box) float64) (box, box) {
	if size(a) <= size(b) {
		return a, b
	}
	return b, a
}

// along returns the point a fraction f of the way along the drawn length of
// path (the links' segments end to end, skipping the gaps inside switch
// boxes), and false if none of its links is drawn.
func (L *topoLayout) along(path []int, f float64) (x, y float64, ok bool) {
	var total float64
	for _, id := range path {
		if id >= 0 && id < len(L.segs) {
			total += L.lens[id]
		}
	}
	if total == 0 {
		return 0, 0, false
	}
	rest := min(max(f, 0), 1) * total
	var last segment
	for _, id := range path {
		if id < 0 || id >= len(L.segs) || !L.segs[id].ok {
			continue
		}
		last = L.segs[id]
		if rest <= L.lens[id] && L.lens[id] > 0 {
			x, y = last.at(rest / L.lens[id])
			return x, y, true
		}
		rest -= L.lens[id]
	}
	return last.x2, last.y2, true
}
