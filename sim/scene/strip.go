package scene

import (
	"math"

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
// the canvas, then the playhead at t on top.
func (b *builder) strip(tl *timeline.Timeline, t units.Time, top float64) {
	s, n := b.s, len(tl.GPUs)
	bottom := b.h - 8*s - 14*b.fs // room for the axis labels
	g := stripLayout{x0: 72 * s, x1: b.w - 20*s, top: top, end: tl.End}
	g.rowH = max(0, bottom-top) / float64(n)
	b.rows(tl, g)
	b.spans(tl, g)
	b.sends(tl, g)
	b.collectiveSpans(tl, g)
	b.axis(g, bottom)
	px := g.x(t)
	b.line("playhead", px, top-4*s, px, bottom+4*s, colPlayhead, 2*s)
}

// rows shades every other row and labels each row when it is tall enough
// to hold text.
func (b *builder) rows(tl *timeline.Timeline, g stripLayout) {
	size := min(11*b.fs, g.rowH*0.75)
	for i := range tl.GPUs {
		y := g.top + float64(i)*g.rowH
		if i%2 == 0 {
			b.rect("strip/row/"+itoa(i), g.x0, y, g.x1-g.x0, g.rowH, colRowShade)
		}
		if g.rowH >= 10 {
			name := truncate(gpuName(tl, i), size, g.x0-12*b.s)
			b.text("strip/label/"+itoa(i), g.x0-6*b.s, y+g.rowH/2+size*0.35, name, size, colText, AnchorEnd)
		}
	}
}

// run is a stretch of one row drawn as a single rect: consecutive spans of
// one kind, or sends, that touch or overlap (within a pixel). first is the
// index of the first span or transfer in it, which names the rect.
type run struct {
	start, end units.Time
	first      int
	kind       timeline.Kind
	open       bool
}

// extend adds [start, end) to r if it touches r, and reports whether it did.
func (r *run) extend(start, end, slack units.Time, kind timeline.Kind) bool {
	if !r.open || kind != r.kind || start > r.end+slack || end+slack < r.start {
		return false
	}
	r.start, r.end = min(r.start, start), max(r.end, end)
	return true
}

// spans draws the compute spans in the upper part of each row.
func (b *builder) spans(tl *timeline.Timeline, g stripLayout) {
	runs := make([]run, len(tl.GPUs))
	emit := func(gpu int, r run) {
		y := g.top + float64(gpu)*g.rowH + g.rowH*0.1
		b.runRect("strip/span/"+itoa(r.first), g, r, y, g.rowH*0.5, spanState(r.kind).fill())
	}
	slack := g.pixel()
	for i := range tl.Spans {
		sp := &tl.Spans[i]
		if sp.GPU < 0 || sp.GPU >= len(runs) {
			continue
		}
		r := &runs[sp.GPU]
		if !r.extend(sp.Start, sp.End, slack, sp.Kind) {
			if r.open {
				emit(sp.GPU, *r)
			}
			*r = run{start: sp.Start, end: sp.End, first: i, kind: sp.Kind, open: true}
		}
	}
	for gpu, r := range runs {
		if r.open {
			emit(gpu, r)
		}
	}
}

// sends draws the transfers each GPU sends as a thinner green bar in the
// lower part of its row, merged into runs.
func (b *builder) sends(tl *timeline.Timeline, g stripLayout) {
	runs := make([]run, len(tl.GPUs))
	emit := func(gpu int, r run) {
		y := g.top + float64(gpu)*g.rowH + g.rowH*0.66
		b.runRect("strip/send/"+itoa(r.first), g, r, y, g.rowH*0.24, stateStyle[Communicating].fill)
	}
	slack := g.pixel()
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if x.Src < 0 || x.Src >= len(runs) {
			continue
		}
		r := &runs[x.Src]
		if !r.extend(x.Start, x.End, slack, "") {
			if r.open {
				emit(x.Src, *r)
			}
			*r = run{start: x.Start, end: x.End, first: i, open: true}
		}
	}
	for gpu, r := range runs {
		if r.open {
			emit(gpu, r)
		}
	}
}

// collectiveSpans draws, in the send lane of each of its GPUs, a collective
// recorded as one span (the analytic fidelity), which has no transfers.
func (b *builder) collectiveSpans(tl *timeline.Timeline, g stripLayout) {
	for k, c := range spanCollectives(tl) {
		for _, gpu := range c.GPUs {
			if gpu < 0 || gpu >= len(tl.GPUs) {
				continue
			}
			y := g.top + float64(gpu)*g.rowH + g.rowH*0.66
			r := run{start: c.Start, end: c.End}
			b.runRect("strip/collective/"+itoa(k)+"/"+itoa(gpu), g, r, y, g.rowH*0.24, stateStyle[Communicating].fill)
		}
	}
}

// runRect draws r at least one pixel wide, so short spans stay visible.
func (b *builder) runRect(id string, g stripLayout, r run, y, h float64, c Color) {
	x0, x1 := g.x(max(0, r.start)), g.x(min(g.end, r.end))
	b.rect(id, x0, y, max(1, x1-x0), max(h, 0.5), c)
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
