package scene

import (
	"math"
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// stripLayout maps the whole run onto the timeline strip: one row per GPU,
// time 0..end across x0..x1.
type stripLayout struct {
	x0, x1, top, rowH float64
	end               units.Time
}

func (g stripLayout) x(t units.Time) float64 {
	if g.end <= 0 {
		return g.x0
	}
	return g.x0 + (g.x1-g.x0)*float64(t)/float64(g.end)
}

// pixel is the time one pixel of the strip covers: runs closer than that
// are merged, which bounds the items per row by the strip's width.
func (g stripLayout) pixel() units.Time {
	if g.x1 <= g.x0 {
		return 0
	}
	return units.Time(math.Floor(float64(g.end) / (g.x1 - g.x0)))
}

// strip draws the timeline strip from y = top to the axis at the bottom of
// the canvas, then the playhead at t on top. Its rows are the Frames' rows:
// every GPU, or one per pipeline stage of a large training run.
func (b *builder) strip(tl *timeline.Timeline, t units.Time, top float64) {
	s, rows := b.s, &b.f.rows
	bottom := b.h - 8*s - 14*b.fs // room for the axis labels
	g := stripLayout{x0: b.stripLeft(tl), x1: b.w - 20*s, top: top, end: tl.End}
	g.rowH = max(0, bottom-top) / float64(len(rows.gpus))
	// Everything but the playhead is the same at every instant: build it
	// once per layout and copy it into later frames. On 64 GPUs this is
	// half of a frame's work.
	key := stripKey{w: b.w, h: b.h, s: s, fs: b.fs, top: top}
	if m := &b.f.strip; m.ok && m.key == key {
		b.items = append(b.items, m.items...)
	} else {
		start := len(b.items)
		b.rows(tl, g)
		if u := b.f.look.underSpans; u != nil {
			u(b, g)
		}
		b.spans(tl, g)
		b.sends(tl, g)
		b.collectiveSpans(g)
		b.stripFaults(tl, g)
		b.axis(g, bottom)
		*m = stripMemo{key: key, items: slices.Clone(b.items[start:]), ok: true}
	}
	px := g.x(t)
	b.line("playhead", px, top-4*s, px, bottom+4*s, colPlayhead, 2*s)
}

// stripLeft is where the strip's rows start, right of their labels: a
// compact frame makes room for its longest label (at most a quarter of
// the width), a wide one keeps the design's 72 px.
func (b *builder) stripLeft(tl *timeline.Timeline) float64 {
	if !b.compact {
		return 72 * b.s
	}
	widest := 0.0
	for i := range b.f.rows.gpus {
		widest = max(widest, textWidth(b.f.rows.rowName(tl, i), b.size(11*b.fs)))
	}
	return min(widest+18*b.s, b.w/4)
}

// stripKey is the layout the strip's items were built for.
type stripKey struct{ w, h, s, fs, top float64 }

// stripMemo holds the strip's items, playhead excepted, for one layout.
// Callers get copies, so themes and presenter scaling applied to a frame
// never reach the memo.
type stripMemo struct {
	key   stripKey
	items []Item
	ok    bool
}

// lanes are where in a row the compute spans and the sends go, as
// fractions of the row's height. A training run gives the spans more room
// for their labels.
func (b *builder) lanes() (spanTop, spanH, sendTop, sendH float64) {
	if b.f.training {
		return 0.08, 0.62, 0.74, 0.22
	}
	return 0.1, 0.5, 0.66, 0.24
}

// rows shades every other row and labels each row when it is tall enough
// to hold text. Row items are named by the GPU they show.
func (b *builder) rows(tl *timeline.Timeline, g stripLayout) {
	size, every := min(11*b.fs, g.rowH*0.75), 1
	if (b.compact || size < 11*b.fs) && g.rowH > 0 {
		// Rows too thin for readable text: label every few at full size,
		// so that the labels neither shrink nor overlap.
		size = b.size(11 * b.fs)
		every = max(1, int(math.Ceil(1.15*size/g.rowH)))
	}
	for i, gpu := range b.f.rows.gpus {
		y := g.top + float64(i)*g.rowH
		if i%2 == 0 {
			b.rect("strip/row/"+itoa(gpu), g.x0, y, g.x1-g.x0, g.rowH, colRowShade)
		}
		if i%every == 0 && (g.rowH >= 10 || every > 1) {
			name := truncate(b.f.rows.rowName(tl, i), size, g.x0-12*b.s)
			b.text("strip/label/"+itoa(gpu), g.x0-6*b.s, y+g.rowH/2+size*0.35, name, size, colText, AnchorEnd)
		}
	}
}

// run is a stretch of one row drawn as a single rect: a span, consecutive
// spans of one kind and microbatch that touch, spans too narrow to draw
// apart (coloured by the kind that lasts longest in it), or sends of one
// kind that touch or overlap (within a pixel). first is the index of the
// first span or transfer in it, which names the rect.
type run struct {
	start, end units.Time
	first      int
	kind       timeline.Kind
	mb         int
	label      string
	longest    units.Time // the longest piece, whose kind the run takes
	mixed      bool       // it merged spans of different kinds or microbatches
	open       bool
}

// extend adds [start, end) to r if it touches r and is of r's kind, and
// reports whether it did.
func (r *run) extend(start, end, slack units.Time, kind timeline.Kind) bool {
	if !r.open || kind != r.kind || start > r.end+slack || end+slack < r.start {
		return false
	}
	r.start, r.end = min(r.start, start), max(r.end, end)
	return true
}

// absorb adds span sp to r when it continues r's op (same kind and
// microbatch, touching), or when both are narrower than narrow, so that a
// row holds at most a few rects per pixel column.
func (r *run) absorb(sp *timeline.Span, slack, narrow units.Time) bool {
	if !r.open || sp.Start > r.end+slack {
		return false
	}
	same := sp.Kind == r.kind && sp.Microbatch == r.mb
	if !same && (r.end-r.start >= narrow || sp.End-sp.Start >= narrow) {
		return false
	}
	if d := sp.End - sp.Start; d > r.longest {
		r.longest, r.kind, r.mb = d, sp.Kind, sp.Microbatch
	}
	r.mixed = r.mixed || !same
	r.start, r.end = min(r.start, sp.Start), max(r.end, sp.End)
	return true
}

// spans draws the compute-stream spans in the upper part of each row,
// coloured by kind (and, in a training run, tinted by microbatch) and
// labelled with their op ("F3") where the rect is wide enough.
func (b *builder) spans(tl *timeline.Timeline, g stripLayout) {
	rows := &b.f.rows
	runs := make([]run, len(rows.gpus))
	top, h, _, _ := b.lanes()
	labels := b.f.look.labelSpans
	emit := func(row int, r run) {
		y := g.top + float64(row)*g.rowH + g.rowH*top
		id := "strip/span/" + itoa(r.first)
		c, _ := kindColor(r.kind)
		if b.f.training {
			c = spanColor(r.kind, r.mb)
		}
		x0, w := b.runRect(id, g, r, y, g.rowH*h, c)
		if labels && !r.mixed {
			b.spanLabel(id, r.label, x0, y, w, g.rowH*h, c)
		}
	}
	slack, narrow := g.pixel(), 3*g.pixel()
	for i := range tl.Spans {
		sp := &tl.Spans[i]
		if sp.GPU < 0 || sp.GPU >= len(rows.row) || rows.row[sp.GPU] < 0 {
			continue
		}
		row := rows.row[sp.GPU]
		r := &runs[row]
		if !r.absorb(sp, slack, narrow) {
			if r.open {
				emit(row, *r)
			}
			*r = run{start: sp.Start, end: sp.End, first: i, kind: sp.Kind, mb: sp.Microbatch,
				label: sp.Label, longest: sp.End - sp.Start, open: true}
		}
	}
	for row, r := range runs {
		if r.open {
			emit(row, r)
		}
	}
}

// minLabelWidth is the narrowest span rect that gets its op's label.
const minLabelWidth = 14

// spanLabel writes label centred in the span rect at x, y, w×h when the
// rect is at least minLabelWidth wide, the text fits, and it is at least
// 6 px (and Options.MinText) high.
func (b *builder) spanLabel(id, label string, x, y, w, h float64, fill Color) {
	size := min(10*b.fs, h*0.85)
	if label == "" || w < minLabelWidth || size < max(6, b.minText) || textWidth(label, size) > w-2 {
		return
	}
	b.text(id+"/label", x+w/2, y+h/2+size*0.35, label, size, textOn(fill), AnchorMiddle)
}

// sends draws the transfers each shown GPU sends as a thinner bar in the
// lower part of its row, merged into runs of one kind of traffic (pipeline
// messages, data-parallel gradients, ZeRO gathers) told apart by colour.
func (b *builder) sends(tl *timeline.Timeline, g stripLayout) {
	rows := &b.f.rows
	runs := make([]run, len(rows.gpus))
	_, _, top, h := b.lanes()
	emit := func(row int, r run) {
		y := g.top + float64(row)*g.rowH + g.rowH*top
		b.runRect("strip/send/"+itoa(r.first), g, r, y, g.rowH*h, trafficColor(string(r.kind)))
	}
	slack := g.pixel()
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if x.Src < 0 || x.Src >= len(rows.row) || rows.row[x.Src] < 0 {
			continue
		}
		row := rows.row[x.Src]
		kind := timeline.Kind(b.f.look.traffic(tl, x))
		r := &runs[row]
		if !r.extend(x.Start, x.End, slack, kind) {
			if r.open {
				emit(row, *r)
			}
			*r = run{start: x.Start, end: x.End, first: i, kind: kind, open: true}
		}
	}
	for row, r := range runs {
		if r.open {
			emit(row, r)
		}
	}
}

// collectiveSpans draws, in the send lane of each of its shown GPUs, a
// collective recorded as one span (the analytic fidelity), which has no
// transfers, coloured by its purpose.
func (b *builder) collectiveSpans(g stripLayout) {
	rows := &b.f.rows
	_, _, top, h := b.lanes()
	for k, c := range b.f.colls {
		for _, gpu := range c.GPUs {
			if gpu < 0 || gpu >= len(rows.row) || rows.row[gpu] < 0 {
				continue
			}
			y := g.top + float64(rows.row[gpu])*g.rowH + g.rowH*top
			r := run{start: c.Start, end: c.End}
			b.runRect("strip/collective/"+itoa(k)+"/"+itoa(gpu), g, r, y, g.rowH*h, trafficColor(c.Purpose))
		}
	}
}

// runRect draws r at least one pixel wide, so short spans stay visible,
// and returns its left edge and width.
func (b *builder) runRect(id string, g stripLayout, r run, y, h float64, c Color) (x, w float64) {
	x0, x1 := g.x(max(0, r.start)), g.x(min(g.end, r.end))
	w = max(1, x1-x0)
	b.rect(id, x0, y, w, max(h, 0.5), c)
	return x0, w
}

// axis draws the time axis under the strip with 4–6 labelled ticks.
func (b *builder) axis(g stripLayout, y float64) {
	s := b.s
	b.line("axis", g.x0, y, g.x1, y, colAxis, 1)
	step := tickStep(g.end)
	size := 11 * b.fs
	for k := 0; ; k++ {
		tk := units.Time(k) * step
		if k > 0 && (step <= 0 || tk > g.end || tk < 0) {
			return
		}
		x := g.x(tk)
		b.line("axis/tick/"+itoa(k), x, y, x, y+4*s, colAxis, 1)
		label, anchor := timeLabel(tk), AnchorMiddle
		if x+textWidth(label, size)/2 > b.w-4*s {
			anchor = AnchorEnd
		}
		b.text("axis/label/"+itoa(k), x, y+5*s+size, label, size, colMuted, anchor)
	}
}

// tickStep picks the smallest round step (1, 2, 2.5 or 5 × 10ⁿ ns) that puts
// at most 6 ticks, 0 included, on [0, end]; the next smaller one would put
// more than 6, so the count is at least 4 once end ≥ 3 ns.
func tickStep(end units.Time) units.Time {
	if end <= 0 {
		return 0
	}
	for p := units.Time(1); p <= units.MaxTime/100; p *= 10 {
		for _, m := range [...]units.Time{10, 20, 25, 50} {
			step := p * m / 10
			if end/step+1 <= 6 {
				return step
			}
		}
	}
	return end
}
