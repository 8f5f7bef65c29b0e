package scene

import (
	"strconv"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Colours of the version-lag badges: within the bound, at it, and with no
// bound at all (ASP), chosen apart in hue and in lightness.
var (
	colLagOK        = Color{0xe8, 0xf1, 0xfa, 0xff}
	colLagAtLimit   = Color{0xf6, 0xc1, 0x4b, 0xff}
	colLagUnbounded = Color{0xf2, 0xd7, 0xd5, 0xff}
	colServer       = Color{0x3d, 0x4e, 0x63, 0xff}
)

// asyncLook draws a parameter-server or local-SGD run (Timeline.Async):
// a collective's look, dressed by asyncOverlay, with asyncEntries for its
// legend.
var asyncLook = look{
	rows:     everyGPURows,
	legend:   asyncEntries,
	caption:  collectiveCaption,
	traffic:  collectiveTraffic,
	memGPUs:  stripGPUs,
	memParts: trainingMemParts,
	overlay:  (*builder).asyncOverlay,
}

// asyncOverlay dresses the network view of a parameter-server or local-SGD
// run: the node boxes are named for what they hold ("workers",
// "parameter servers"), each server is drawn as a dark host box labelled
// "PS", the caption says what the synchronisation allows, and every
// worker carries a badge with its speed and its version lag at t
// against the bound in force ("×0.25 · lag 2/2"), amber at the bound.
//
// It edits the items the network view already placed, so it needs no
// layout of its own and stays out of the layouts' way.
func (b *builder) asyncOverlay(t units.Time) {
	tl := b.f.tl
	a := tl.Async
	at := make(map[string]int, len(b.items))
	for i := range b.items {
		at[b.items[i].ID] = i
	}
	if len(a.Servers) > 0 {
		if i, ok := at["node/0/label"]; ok {
			b.items[i].Text = "workers"
		}
		if i, ok := at["node/1/label"]; ok {
			b.items[i].Text = "parameter servers"
		}
	}
	for _, g := range a.Servers {
		if i, ok := at["gpu/"+itoa(g)]; ok && b.items[i].Fill == stateStyle[Idle].fill {
			b.items[i].Fill = colServer
			if j, ok := at["gpu/"+itoa(g)+"/label"]; ok {
				b.items[j].Fill = colWhite
			}
			if j, ok := at["gpu/"+itoa(g)+"/state"]; ok {
				b.items[j].Fill = colWhite
			}
		}
	}
	b.asyncCaptionLine(tl, t, at)
	for w, g := range a.Workers {
		if i, ok := at["gpu/"+itoa(g)]; ok {
			b.lagBadge(a, w, g, b.items[i], t)
		}
	}
}

// asyncCaptionLine writes asyncCaption on the caption line of the
// topology view (in place of the collective step), or top left above the
// ring, whose centre keeps naming the collective in flight.
func (b *builder) asyncCaptionLine(tl *timeline.Timeline, t units.Time, at map[string]int) {
	text := asyncCaption(tl.Async, t)
	size := 13 * b.fs
	if len(tl.Switches) == 0 {
		size = 12 * b.fs
		if text = truncate(text, size, b.vw/2-70*b.s); text != "" {
			b.text("async/caption", 12*b.s, 44*b.fs, text, size, colMuted, AnchorStart)
		}
		return
	}
	text = truncate(text, size, b.vw-24*b.s-b.loadLegendRoom())
	if i, ok := at["caption"]; ok {
		b.items[i].Text = text
	} else if text != "" {
		b.text("caption", 12*b.s, 44*b.fs, text, size, colText, AnchorStart).Bold = true
	}
}

// lagBadge draws worker w's badge over the top-right corner of its box r.
func (b *builder) lagBadge(a *timeline.Async, w, g int, r Item, t units.Time) {
	lag, limit := a.LagAt(w, t)
	text := "lag " + itoa(lag)
	fill := colLagOK
	switch {
	case limit < 0:
		fill = colLagUnbounded
	case lag >= limit:
		text += "/" + itoa(limit)
		fill = colLagAtLimit
	default:
		text += "/" + itoa(limit)
	}
	size := b.size(max(9*b.fs, min(11*b.fs, r.H/4)))
	if w < len(a.Speeds) && a.Speeds[w] != 1 {
		speed := "×" + strconv.FormatFloat(a.Speeds[w], 'g', 3, 64) + " · " + text
		if !b.compact || textWidth(speed, size) <= r.W {
			text = speed
		}
	}
	if b.compact && textWidth(text, size) > r.W {
		// Badges wider than their boxes would cover their neighbours':
		// the strip still shows who waits.
		return
	}
	bw := textWidth(text, size) + 8*b.s
	bh := size + 5*b.s
	x := r.X + r.W - bw + 4*b.s
	y := r.Y - bh/2
	if b.compact { // over the box, clear of its name: the text is large for it
		y = r.Y - bh + 2*b.s
	}
	id := "gpu/" + itoa(g) + "/lag"
	badge := b.rect(id, x, y, bw, bh, fill)
	badge.Stroke, badge.StrokeWidth = colBoxEdge, max(0.75, b.s)
	b.text(id+"/label", x+bw/2, y+bh-3.5*b.s, text, size, colDarkText, AnchorMiddle)
}

// asyncCaption says, for the caption line, what the synchronisation lets
// workers do, e.g. "SSP, s = 2: a worker runs at most 2 iterations ahead
// of the slowest".
func asyncCaption(a *timeline.Async, t units.Time) string {
	switch a.Mode {
	case "bsp":
		return "BSP: every worker waits for the slowest at every iteration"
	case "asp":
		return "ASP: no worker waits; the lag is unbounded"
	case "ssp":
		return "SSP, s = " + itoa(a.Bound) + ": a worker runs at most " + itoa(a.Bound) + " iterations ahead of the slowest"
	case "dssp":
		most := a.Bound
		for _, it := range a.Iterations {
			if it.Start > t {
				break
			}
			most = max(most, it.Limit)
		}
		return "DSSP: the bound moves from s = " + itoa(a.Bound) + " as worker speeds dictate (up to " + itoa(most) + " so far)"
	case "local-sgd":
		return "local SGD: " + itoa(a.Bound) + " local steps between averagings"
	}
	return strings.ToUpper(a.Mode)
}

// asyncEntries is the legend of a parameter-server or local-SGD run: the
// GPU states, compression when the run compresses, and what the chunks in
// flight are (pushes and pulls, or the averaging's all-reduce).
func asyncEntries(f *Frames) []legendEntry {
	tl := f.tl
	out := []legendEntry{
		{"forward", "forward", stateStyle[Forward].fill, Color{}},
		{"backward", "backward", stateStyle[Backward].fill, Color{}},
	}
	for i := range tl.Spans {
		if tl.Spans[i].Kind == timeline.Compress {
			c, _ := kindColor(timeline.Compress)
			out = append(out, legendEntry{"compress", "compress", c, Color{}})
			break
		}
	}
	out = append(out,
		legendEntry{"communication", "communication", stateStyle[Communicating].fill, Color{}},
		legendEntry{"idle", "idle", stateStyle[Idle].fill, Color{}},
		legendEntry{"done", "done", stateStyle[Done].fill, Color{}})
	if len(tl.Async.Servers) > 0 {
		return append(out, legendEntry{"push-pull", "chunk, push or pull", colWhite, phaseColor("push")})
	}
	return append(out,
		legendEntry{"reduce-scatter", "chunk, reduce-scatter", colWhite, colReduceScatter},
		legendEntry{"all-gather", "chunk, all-gather", colWhite, colAllGather})
}
