package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Colours of the topology view.
var (
	colNodeFill = Color{0xf2, 0xf4, 0xf7, 0xff}
	colNodeEdge = Color{0xb8, 0xbe, 0xc8, 0xff}
	colSwitch   = Color{0x4a, 0x55, 0x68, 0xff}
)

// topology draws a timeline that has switches: the caption line, the nodes
// with their GPUs and switches, the network's switches, every link coloured
// by its load and every transfer in flight along its path.
func (b *builder) topology(tl *timeline.Timeline, t units.Time, top, bottom float64, acts []activity) {
	captionY := top + 14*b.fs
	b.loadLegend(captionY)
	b.topoCaption(tl, t, captionY)
	L := b.layoutTopology(tl, captionY+10*b.s, bottom)
	b.nodeGroups(L)
	b.topoLinks(tl, L, t)
	b.nodeLabels(L)
	b.switches(tl, L, t)
	cx, cy := L.cx, L.cy
	if L.gpuW < minGPUBox && len(L.nodes) > 0 {
		b.nodeStates(tl, L, acts)
	} else {
		b.gpus(tl, cx, cy, L.gpuW, L.gpuH, acts)
	}
	b.gpuFaults(tl, t, cx, cy, L.gpuW, L.gpuH)
	b.packets(tl, L, t)
	b.inNetworkMarkers(L, t)
}

// topoCaption writes the step caption at the left of the caption line,
// clear of the load legend at its right.
func (b *builder) topoCaption(tl *timeline.Timeline, t units.Time, y float64) {
	text := b.f.look.caption(b.f, t, b.live)
	if text == "" {
		return
	}
	size := 13 * b.fs
	room := b.vw - 24*b.s - b.loadLegendRoom()
	if text = truncate(text, size, room); text != "" {
		b.text("caption", 12*b.s, y, text, size, colText, AnchorStart).Bold = true
	}
}

// loadLegendWidth is the width the load legend takes at the right of the
// caption line.
func (b *builder) loadLegendWidth() float64 {
	size := 11 * b.fs
	return textWidth("link load idle", size) + textWidth("full", size) + float64(len(loadRamp)+1)*12*b.fs + 24*b.s
}

// loadLegendRoom is the width the load legend takes on the caption line:
// loadLegendWidth when it is drawn, else 0.
func (b *builder) loadLegendRoom() float64 {
	if w := b.loadLegendWidth(); w <= b.vw/2 {
		return w
	}
	return 0
}

// loadLegend draws "link load idle ▮▮▮▮▮ full" right-aligned at baseline y,
// when the canvas is wide enough for it and a caption.
func (b *builder) loadLegend(y float64) {
	if b.loadLegendWidth() > b.vw/2 {
		return
	}
	size, sw := 11*b.fs, 12*b.fs
	x := b.vw - 12*b.s - textWidth("full", size)
	b.text("legend/load/full", x, y, "full", size, colMuted, AnchorStart)
	x -= 4 * b.s
	for k := len(loadRamp) - 1; k >= -1; k-- {
		x -= sw
		c := colLink
		if k >= 0 {
			c = loadRamp[k]
		}
		b.rect(b.f.ids.loadKey.at(k+1), x, y-sw*0.85, sw, sw*0.85, c)
	}
	b.text("legend/load/label", x-4*b.s, y, "link load idle", size, colMuted, AnchorEnd)
}

// nodeGroups draws each node's box.
func (b *builder) nodeGroups(L topoLayout) {
	for _, n := range L.nodes {
		r := b.rect(b.f.ids.node.at(n.id), n.r.x0, n.r.y0, n.r.w(), n.r.h(), colNodeFill)
		r.Stroke, r.StrokeWidth = colNodeEdge, 1
	}
}

// nodeLabels names each node that has room, over the cables that cross it.
func (b *builder) nodeLabels(L topoLayout) {
	for _, n := range L.nodes {
		if n.label {
			size := 11 * b.fs
			b.text(b.f.ids.nodeLabel.at(n.id), n.r.x0+6*b.s, n.r.y0+4*b.s+size, n.text, size, colMuted, AnchorStart)
		}
	}
}

// topoLinks draws every placed link coloured by its load at t, and thicker
// the more it carries. A pair of links drawn as one line (L.twin) shows the
// busier direction, midway between the two, as "link/<i>+<j>".
func (b *builder) topoLinks(tl *timeline.Timeline, L topoLayout, t units.Time) {
	b.f.loadsBuf = loadsInto(b.f.loadsBuf, tl, t, b.live)
	u := b.f.loadsBuf
	b.f.addInNetworkLoads(u, t)
	thin := min(1.2*b.s, max(L.gpuW*0.1, 0.3))
	for i, sg := range L.segs {
		if !sg.ok {
			continue
		}
		load, id := u[i], L.linkID[i]
		if j := L.twin[i]; j >= 0 {
			if j < i {
				continue // drawn with j
			}
			tw := L.segs[j]
			// The twin runs the other way: its end is this one's start.
			sg = segment{(sg.x1 + tw.x2) / 2, (sg.y1 + tw.y2) / 2, (sg.x2 + tw.x1) / 2, (sg.y2 + tw.y1) / 2, true}
			load = max(u[i], u[j])
		}
		width := thin
		if load > 0 {
			width = thin * (1.5 + 1.5*min(load, 1))
		}
		b.line(id, sg.x1, sg.y1, sg.x2, sg.y2, loadColor(load), width)
	}
}

// switches draws every placed switch as a dark box, named when it fits,
// or lit with "<name> adds" while it adds an in-network reduction.
func (b *builder) switches(tl *timeline.Timeline, L topoLayout, t units.Time) {
	n := len(tl.GPUs)
	for j, sw := range tl.Switches {
		v := n + j
		if !L.placed[v] {
			continue
		}
		r := L.verts[v]
		fill, text, name := colSwitch, colWhite, sw.Name
		if name == "" {
			name = sw.Kind
		}
		if adds := b.f.adding(v, t); adds != "" {
			fill, text, name = colAdding, colDarkText, adds
		}
		b.rect(b.f.ids.switchID.at(v), r.x0, r.y0, r.w(), r.h(), fill)
		size := b.size(min(11*b.fs, r.h()*0.8))
		if size >= 7 && size <= max(r.h(), 11*b.fs) && textWidth(name, size) <= r.w()-6*b.s {
			b.text(b.f.ids.switchLabel.at(v), r.cx(), r.cy()+size*0.35, name, size, text, AnchorMiddle)
		}
	}
}

// packets draws every transfer in flight at t as a square a fraction
// BytesAt(t)/Bytes along the drawn length of its path (at the source while
// it pays its latency), filled by chunk and outlined by phase.
func (b *builder) packets(tl *timeline.Timeline, L topoLayout, t units.Time) {
	size := max(3, min(14*b.s, L.gpuW*0.45, L.gpuH*0.45))
	for _, i := range b.live {
		x := tl.Transfers.At(int(i))
		f := 0.0
		if x.Bytes > 0 {
			f = x.BytesAt(t) / float64(x.Bytes)
		}
		px, py, ok := L.along(x.Path, f)
		if !ok {
			continue
		}
		id := b.f.ids.xfer.at(i)
		if b.f.training {
			sq := b.rect(id, px-size/2, py-size/2, size, size, trafficColor(b.f.look.traffic(tl, x)))
			sq.Stroke, sq.StrokeWidth = colBoxEdge, max(0.5, min(b.s, size/8))
			continue
		}
		fill, label, text := chunkColor(x.Chunk), x.Chunk, colDarkText
		if channelsOf(tl, &x) > 1 { // coloured and numbered by channel
			fill, label = channelColor(x.Channel), int(x.Channel)
			text = textOn(fill)
		}
		sq := b.rect(id, px-size/2, py-size/2, size, size, fill)
		sq.Stroke, sq.StrokeWidth = phaseColor(x.Phase), max(0.75, min(2*b.s, size/6))
		if size >= 12 && label >= 0 {
			b.text(b.f.ids.xferLabel.at(i), px, py+size*0.3, b.f.ids.number.at(label), size*0.65, text, AnchorMiddle)
		}
	}
}

// minGPUBox is the narrowest GPU box, in pixels, still drawn one per GPU;
// below it (about 1,000 GPUs on a laptop screen) each node's GPUs are
// drawn as one bar.
const minGPUBox = 3

// nodeStates draws, for each node whose GPU boxes would be narrower than
// minGPUBox, one bar over the area of its GPUs, divided left to right into
// the states of those GPUs in proportion to how many are in each (a node
// with 6 GPUs computing forward and 2 idle is three quarters blue): the
// picture a reader can still see at that size, told in numbers on hover.
func (b *builder) nodeStates(tl *timeline.Timeline, L topoLayout, acts []activity) {
	for k, n := range L.nodes {
		gs := L.nodeGPUs[k]
		if len(gs) == 0 {
			continue
		}
		area := L.verts[gs[0]]
		var count [256]int
		for _, g := range gs {
			v := L.verts[g]
			area = box{min(area.x0, v.x0), min(area.y0, v.y0), max(area.x1, v.x1), max(area.y1, v.y1)}
			count[acts[g].state]++
		}
		id := b.f.ids.nodeGPUs.at(n.id)
		x := area.x0
		for st, k := range count {
			if k == 0 {
				continue
			}
			w := area.w() * float64(k) / float64(len(gs))
			b.rect(b.f.ids.nodeStateID(n.id, State(st)), x, area.y0, w, area.h(), State(st).fill())
			x += w
		}
		edge := b.rect(id, area.x0, area.y0, area.w(), area.h(), Color{})
		edge.Stroke, edge.StrokeWidth = colBoxEdge, 1
	}
}
