package scene

import (
	"math"
	"slices"
	"strconv"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Colours of faults and recovery. A failed GPU is grey with a dark red
// cross, a slow one hatched in dark red; waiting, restarting and
// checkpointing tint the strip.
var (
	colFailed     = Color{0x8a, 0x8a, 0x8a, 0xff}
	colCross      = Color{0xa3, 0x12, 0x12, 0xff}
	colHatch      = Color{0xa3, 0x12, 0x12, 0xd0}
	colHung       = Color{0xf5, 0xb7, 0x00, 0x70}
	colRestarting = Color{0x7b, 0x3f, 0xa0, 0x70}
	colCheckpoint = Color{0x2a, 0x9d, 0x8f, 0x80}
	colReplan     = Color{0x1d, 0x3f, 0x8c, 0xa0}
	colDropped    = Color{0xb0, 0xb0, 0xb0, 0xd8}
	colDetOK      = Color{0x7f, 0x9c, 0xbd, 0xff}
	colDetNaive   = Color{0xf2, 0x8e, 0x2b, 0xff}
	colDetFlag    = Color{0xd6, 0x27, 0x28, 0xff}
)

// stateTint is the strip's overlay for a fault state, and whether it has one.
func stateTint(state string) (Color, bool) {
	switch state {
	case timeline.StateFailed:
		return colFailed, true
	case timeline.StateDropped:
		return colDropped, true
	case timeline.StateHung:
		return colHung, true
	case timeline.StateRestarting:
		return colRestarting, true
	case timeline.StateCheckpoint:
		return colCheckpoint, true
	case timeline.StateReplan:
		return colReplan, true
	}
	return Color{}, false
}

// gpuFaults draws over each GPU box (bw×bh centred on cx, cy) its fault
// state at t: grey with a cross when failed, grey when dropped, hatched
// when slow, an outline of the state's tint when hung, restarting or
// checkpointing.
func (b *builder) gpuFaults(tl *timeline.Timeline, t units.Time, cx, cy []float64, bw, bh float64) {
	if len(tl.States) == 0 {
		return
	}
	for g := range cx {
		st, factor := tl.StateAt(g, t)
		if st == "" || math.IsNaN(cx[g]) {
			continue
		}
		id := "gpu/" + itoa(g) + "/fault"
		x0, y0 := cx[g]-bw/2, cy[g]-bh/2
		if st != timeline.StateSlow && slowAt(tl, g, t) {
			b.hatch(id+"/slow", x0, y0, bw, bh, max(4, bw/6)) // still slow under the wait
		}
		switch st {
		case timeline.StateFailed, timeline.StateDropped:
			c, _ := stateTint(st)
			c.A = 0xe8
			b.rect(id, x0, y0, bw, bh, c)
			if st == timeline.StateFailed {
				w := max(1.5, 2.5*b.s)
				b.line(id+"/cross/a", x0, y0, x0+bw, y0+bh, colCross, w)
				b.line(id+"/cross/b", x0, y0+bh, x0+bw, y0, colCross, w)
			}
		case timeline.StateSlow:
			b.hatch(id, x0, y0, bw, bh, max(4, bw/6))
			if size := b.size(min(10*b.fs, bh*0.3)); size >= 7 {
				label := "×" + strconv.FormatFloat(factor, 'g', 3, 64)
				y := y0 + bh - 3*b.s
				if b.compact { // under the box: in it, the large text covers the state
					y = y0 + bh + size
				}
				b.text(id+"/label", x0+bw-2*b.s, y, label, size, colCross, AnchorEnd).Bold = true
			}
		default:
			c, _ := stateTint(st)
			c.A = 0xff
			r := b.rect(id, x0-2*b.s, y0-2*b.s, bw+4*b.s, bh+4*b.s, Color{})
			r.Stroke, r.StrokeWidth = c, max(2, 3*b.s)
			if size := b.size(min(10*b.fs, bh*0.3)); st == timeline.StateReplan && size >= 7 {
				// Its place in the new layout (resihp's re-plan), on a band
				// over the box's activity line.
				b.rect(id+"/band", x0, y0+bh*0.55, bw, bh*0.45, c)
				b.text(id+"/group", x0+bw/2, y0+bh*0.55+bh*0.225+size*0.35, groupAt(tl, g, t), size, colWhite, AnchorMiddle).Bold = true
			}
		}
	}
}

// groupAt is GPU g's place in the layout a re-plan under way at t moves
// it to.
func groupAt(tl *timeline.Timeline, g int, t units.Time) string {
	for _, s := range tl.States {
		if s.GPU == g && s.State == timeline.StateReplan && s.Start <= t && t < s.End {
			return s.Group
		}
	}
	return ""
}

// slowAt reports whether GPU g is in a fail-slow state at t.
func slowAt(tl *timeline.Timeline, g int, t units.Time) bool {
	for _, s := range tl.States {
		if s.GPU == g && s.State == timeline.StateSlow && s.Start <= t && t < s.End {
			return true
		}
	}
	return false
}

// hatch draws diagonal lines (bottom-left to top-right) every step pixels
// across the box x0, y0, w×h, clipped to it.
func (b *builder) hatch(id string, x0, y0, w, h, step float64) {
	k := 0
	for x := x0 - h + step/2; x < x0+w; x += step {
		// The line y = y0 + h − (X − x) for X in [x, x+h], clipped.
		a, c := max(x, x0), min(x+h, x0+w)
		if c <= a {
			continue
		}
		b.line(id+"/hatch/"+itoa(k), a, y0+h-(a-x), c, y0+h-(c-x), colHatch, max(1, 1.2*b.s))
		k++
	}
}

// stripFaults draws the fault states over the strip's rows and marks
// where each iteration starts.
func (b *builder) stripFaults(tl *timeline.Timeline, g stripLayout) {
	rows := &b.f.rows
	for i, s := range tl.States {
		if s.GPU < 0 || s.GPU >= len(rows.row) || rows.row[s.GPU] < 0 || s.End <= s.Start && s.End != tl.End {
			continue
		}
		id := "strip/fault/" + itoa(i)
		y := g.top + float64(rows.row[s.GPU])*g.rowH
		x0, x1 := g.x(s.Start), g.x(s.End)
		w := max(1, x1-x0)
		if s.State == timeline.StateSlow {
			b.hatch(id, x0, y+g.rowH*0.08, w, g.rowH*0.84, max(5, 7*b.s))
			continue
		}
		c, ok := stateTint(s.State)
		if !ok {
			continue
		}
		b.rect(id, x0, y, w, g.rowH, c)
		if s.State == timeline.StateFailed {
			d := min(g.rowH*0.8, 10*b.s)
			cy := y + g.rowH/2
			b.line(id+"/cross/a", x0, cy-d/2, x0+d, cy+d/2, colCross, max(1.5, 2*b.s))
			b.line(id+"/cross/b", x0, cy+d/2, x0+d, cy-d/2, colCross, max(1.5, 2*b.s))
		}
	}
	b.iterationMarks(tl, g)
}

// iterationMarks draws a thin line where each iteration after the first
// starts, labelled above the strip when there is room: its step, "redo"
// for a step done again, and "lost" on an aborted one.
func (b *builder) iterationMarks(tl *timeline.Timeline, g stripLayout) {
	if len(tl.Iterations) < 2 {
		return
	}
	size := b.size(9 * b.fs)
	bottom := g.top + g.rowH*float64(len(b.f.rows.gpus))
	lastX := -1e9
	for k, it := range tl.Iterations {
		x := g.x(it.Start)
		if k > 0 {
			b.line("strip/iter/"+itoa(k), x, g.top, x, bottom, colAxis, 1)
		}
		label := "step " + itoa(it.Step)
		switch {
		case it.Aborted:
			label += " lost"
		case it.Redo:
			label += " redo"
		}
		w := textWidth(label, size)
		if x-lastX < w+4*b.s || g.x(it.End)-x < w*0.6 {
			continue
		}
		b.text("strip/iter/"+itoa(k)+"/label", x+2*b.s, g.top-2*b.s, label, size, colMuted, AnchorStart)
		lastX = x + w
	}
}

// detectorHeight is the height the detector panel takes in the column.
func (b *builder) detectorHeight() float64 {
	if len(b.f.tl.Iterations) == 0 {
		return 0
	}
	return 96 * b.fs
}

// detector draws, in the box x0..x1 from y down, the observed time of each
// iteration finished by t as a bar, its predicted time as a tick, red when
// the workload-aware predictor fired, orange when only the naive threshold
// did; below, the two detectors' verdicts so far.
func (b *builder) detector(t units.Time, x0, x1, y float64) {
	tl := b.f.tl
	its := tl.Iterations
	if len(its) == 0 {
		return
	}
	size := 10 * b.fs
	b.text("detector/title", x0, y+size, truncate("detector: observed vs predicted", size, x1-x0), size, colMuted, AnchorStart)
	var top units.Time
	for _, it := range its {
		top = max(top, it.Observed(), it.Predicted)
	}
	chartTop, chartH := y+size+4*b.s, 44*b.fs
	base := chartTop + chartH
	slot := (x1 - x0) / float64(len(its))
	barW := max(1, min(slot*0.7, 16*b.s))
	var naive, pred, slowGPUs []string
	for k, it := range its {
		if it.End > t || top <= 0 {
			continue
		}
		x := x0 + float64(k)*slot + (slot-barW)/2
		h := chartH * float64(it.Observed()) / float64(top)
		c := colDetOK
		switch {
		case it.Aborted:
			c = colFailed
		case it.PredictorFlag:
			c = colDetFlag
		case it.NaiveFlag:
			c = colDetNaive
		}
		b.rect("detector/bar/"+itoa(k), x, base-h, barW, max(h, 1), c)
		if it.Predicted > 0 {
			py := base - chartH*float64(it.Predicted)/float64(top)
			b.line("detector/pred/"+itoa(k), x-2*b.s, py, x+barW+2*b.s, py, colText, max(1, 1.5*b.s))
		}
		if it.NaiveFlag {
			naive = append(naive, itoa(it.Step))
		}
		if it.PredictorFlag {
			if !slices.Contains(slowGPUs, itoa(it.SlowGPU)) {
				slowGPUs = append(slowGPUs, itoa(it.SlowGPU))
			}
			pred = append(pred, itoa(it.Step))
		}
	}
	b.line("detector/axis", x0, base, x1, base, colAxis, 1)
	verdict := func(id, name string, hits []string, c Color, yy float64) {
		text := name + ": quiet"
		if len(hits) > 0 {
			text = name + ": step " + joinFirst(hits, 4)
		}
		b.text(id, x0, yy, truncate(text, size, x1-x0), size, c, AnchorStart)
	}
	verdict("detector/naive", "naive >1.2× median", naive, colDetNaive, base+size+3*b.s)
	name := "predictor >1.1×"
	if len(slowGPUs) > 0 {
		name += " GPU " + joinFirst(slowGPUs, 2)
	}
	verdict("detector/predictor", name, pred, colDetFlag, base+2*size+6*b.s)
}

// joinFirst joins up to n items with ", " and says how many more.
func joinFirst(items []string, n int) string {
	out := ""
	for i, s := range items {
		if i == n {
			return out + " +" + itoa(len(items)-n)
		}
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// recoveryCaption names the recovery step in force at t: the detection
// wait, the restart, a checkpoint, or the first iteration after a replica
// was dropped; "" when there is none.
func recoveryCaption(tl *timeline.Timeline, t units.Time) string {
	var failed string
	for _, r := range tl.Recovery {
		switch {
		case r.Kind == "fail" && r.Start <= t:
			failed = r.Detail
		case r.Kind == "detect" && r.Start <= t && t < r.End:
			return failed + " · peers wait: " + r.Detail
		case (r.Kind == "restart" || r.Kind == "checkpoint") && r.Start <= t && t < r.End:
			return r.Detail
		case r.Kind == "replan" && r.Start <= t && t < r.End:
			return "resihp: " + r.Detail
		case r.Kind == "drop" && r.Start <= t:
			for _, it := range tl.Iterations {
				if it.Start >= r.Start { // the first iteration after the drop
					if t < it.End {
						return "elastic: " + r.Detail
					}
					break
				}
			}
		}
	}
	return ""
}
