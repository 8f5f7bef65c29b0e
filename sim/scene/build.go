package scene

import (
	"strconv"
	"unicode/utf8"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Build lays out the run tl as it stands at instant t: the GPUs on a ring
// coloured by what they do, the links with the chunks in flight on them, and
// below a timeline strip of the whole run with a playhead at t.
//
// Build is pure and deterministic: the same arguments give the same list.
// t is clamped into [0, tl.End]. Sizes in opt that are zero or invalid fall
// back to the defaults (call Options.Validate to reject them instead). A
// nil or empty timeline gives a list holding a message, never a panic.
// Item IDs are stable across instants; see the package documentation.
func Build(tl *timeline.Timeline, t units.Time, opt Options) DrawList {
	return NewFrames(tl).Build(t, opt)
}

// build lays out one frame. A training run gives the right-hand column to
// its metrics and memory bars and the network view the rest.
func (f *Frames) build(t units.Time, opt Options) DrawList {
	tl := f.tl
	w, h := opt.size()
	s, fs := scales(w, h, opt)
	// The builder lives in f: the looks take it through a function
	// value, which would move a local one to the heap every frame.
	b := &f.bld
	*b = builder{w: w, h: h, s: s, fs: fs, vw: w, f: f, minText: opt.MinText, compact: opt.Compact}
	if tl == nil || len(tl.GPUs) == 0 {
		b.empty(tl)
		return b.list()
	}
	t = max(0, min(t, tl.End))
	b.items = f.items(estimateItems(f, w))
	b.header(tl.Title, t, tl.End)
	bandBottom := 0.58 * h
	if b.compact {
		bandBottom = 0.5 * h
	}
	if f.training && !b.compact {
		b.vw = w - b.panelWidth()
		b.panel(t, 30*b.fs, bandBottom)
	}
	b.live = f.liveAt(t)
	f.actsBuf = activitiesOf(f.actsBuf, tl, t, f.colls, f.spansAt(t), b.live)
	acts := f.actsBuf
	if len(tl.Switches) > 0 {
		b.topology(tl, t, 30*b.fs, bandBottom+2*b.s, acts)
	} else {
		ringTop := 40 * b.s
		if b.compact {
			ringTop = 50 * b.fs // below the caption line
		}
		ring := f.ringOf(ringTop, bandBottom, b.vw, b.s)
		b.caption(tl, ring, t, ringTop, bandBottom)
		b.links(tl, ring, t)
		b.gpus(tl, ring.cx, ring.cy, ring.bw, ring.bh, acts)
		b.gpuFaults(tl, t, ring.cx, ring.cy, ring.bw, ring.bh)
		b.chunks(tl, ring, t)
	}
	if o := f.look.overlay; o != nil {
		o(b, t)
	}
	stripTop, legendY := bandBottom+30*b.s, bandBottom+18*b.s
	if b.compact {
		legendY = bandBottom + 24*b.s // clear of the boxes at the band's foot
	}
	if y := b.legend(legendY); b.compact {
		if len(tl.Iterations) > 1 {
			y += b.size(9*b.fs) + 2*b.s // the iterations' labels sit over the strip
		}
		stripTop = max(stripTop, y+10*b.fs)
	}
	b.strip(tl, t, stripTop)
	b.overlays(t)
	return b.list()
}

// scales are a frame's scale of fixed sizes (s) and of text (fs) from the
// 960×600 design: text shrinks less than the rest, so that small canvases
// stay legible, and a compact frame sizes both from its width (Compact).
func scales(w, h float64, opt Options) (s, fs float64) {
	if opt.Compact {
		k := w / CompactWidth
		return k * compactGeometry, k * opt.textScale()
	}
	s = min(w/DefaultWidth, h/DefaultHeight)
	return s, max(s, 0.7) * opt.textScale()
}

// estimateItems sizes the item slice once, so appends rarely grow it. The
// strip merges a row's sends closer than a pixel, so a row holds at most
// about w of them.
func estimateItems(f *Frames, w float64) int {
	tl, rows := f.tl, len(f.rows.gpus)
	sends := min(tl.Transfers.Len(), rows*int(w))
	spans := min(len(tl.Spans), rows*int(w)/2)
	links := len(tl.Links)
	if len(tl.Switches) == 0 {
		links *= 3 // a line and two arrowhead strokes each
	}
	if g := &f.ring.g; f.ring.ok && g.block > 1 {
		links = 3 * len(g.marks) // a torus in blocks draws its links as marks
	}
	fixed := 64 + 4*len(tl.GPUs) + 2*len(tl.Switches) + links
	if f.strip.ok { // the strip of the last frame is known exactly
		return fixed + len(f.strip.items)
	}
	// A first guess, bounded: the row-times-width bounds above are loose
	// on hundreds of rows, and append grows the rare longer list.
	return min(fixed+2*spans+sends+10*rows, 1<<15)
}

// builder accumulates items for one frame. s scales every fixed pixel size
// from the 960×600 design to the canvas; fs scales font sizes, which shrink
// less so that small canvases stay legible.
type builder struct {
	w, h, s, fs float64
	// vw is the width of the network view, left of a training run's panel.
	vw    float64
	f     *Frames
	items []Item
	live  []int32 // the transfers in flight at the frame's instant, ascending
	// minText is Options.MinText: optional labels smaller are left out,
	// and in a compact frame no text is smaller.
	minText float64
	compact bool // Options.Compact
}

func (b *builder) list() DrawList {
	return DrawList{Width: b.w, Height: b.h, Background: colBackground, Items: b.items}
}

// rect, line and text are not inlined: the scene calls them from about
// ninety places, and each inlined append of an Item cost the browser's
// download a few hundred bytes.
//
//go:noinline
func (b *builder) rect(id string, x, y, w, h float64, fill Color) *Item {
	b.items = append(b.items, Item{ID: id, Shape: Rect, X: x, Y: y, W: w, H: h, Fill: fill})
	return &b.items[len(b.items)-1]
}

//go:noinline
func (b *builder) line(id string, x, y, x2, y2 float64, c Color, width float64) {
	b.items = append(b.items, Item{ID: id, Shape: Line, X: x, Y: y, X2: x2, Y2: y2, Stroke: c, StrokeWidth: width})
}

//go:noinline
func (b *builder) text(id string, x, y float64, s string, size float64, c Color, a Anchor) *Item {
	b.items = append(b.items, Item{ID: id, Shape: Text, X: x, Y: y, Text: s, Size: b.size(size), Fill: c, Anchor: a})
	return &b.items[len(b.items)-1]
}

// wide is textWidth for a layout that must not overflow: in a compact
// frame, whose boxes are tight, with the margin bold text needs.
func (b *builder) wide(s string, size float64) float64 {
	if b.compact {
		return 1.2 * textWidth(s, size)
	}
	return textWidth(s, size)
}

// size is the size text asked for at size is drawn at: in a compact frame
// at least minText (layouts that fit text into a box ask it first).
func (b *builder) size(size float64) float64 {
	if b.compact {
		return max(size, b.minText)
	}
	return size
}

// textWidth estimates the width of s in a proportional sans-serif face; the
// draw list carries no font metrics, so layout decisions use this bound.
func textWidth(s string, size float64) float64 {
	return 0.56 * size * float64(utf8.RuneCountInString(s))
}

// truncate shortens s with an ellipsis so that it fits in width.
func truncate(s string, size, width float64) string {
	if textWidth(s, size) <= width {
		return s
	}
	keep := int(width/(0.56*size)) - 1
	if keep <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:min(keep, len(r))]) + "…"
}

func (b *builder) header(title string, t, end units.Time) {
	s, fs := b.s, b.fs
	now, timeSize, titleSize := "t = "+clockLabel(t)+" / "+clockLabel(end), 14*fs, 16*fs
	if b.compact { // the strip's axis shows the end: the title gets the room
		now, timeSize, titleSize = "t = "+clockLabel(t), 12*fs, 14*fs
	}
	b.text("header/time", b.w-12*s, 24*fs, now, timeSize, colText, AnchorEnd)
	room := b.w - 36*s - textWidth(now, timeSize)
	if b.compact { // tight: make room for bold text's width over textWidth's
		room = (room - 0.15*textWidth(now, timeSize)) / 1.1
	}
	b.text("header/title", 12*s, 24*fs, truncate(title, titleSize, room), titleSize, colText, AnchorStart).Bold = true
}

// fitLabel is truncate for a box's label, except that a compact frame
// leaves out a label cut to under four letters ("act…" tells nothing).
func (b *builder) fitLabel(s string, size, width float64) string {
	t := truncate(s, size, width)
	if b.compact && t != s && utf8.RuneCountInString(t) < 5 {
		return ""
	}
	return t
}

// clockLabel prints t for the header's clock to four significant digits
// ("12.25ms", not "12.248082ms"): the clock runs, and digits that change
// every frame tell a reader nothing. The inspector keeps exact times.
func clockLabel(t units.Time) string {
	if t == 0 {
		return "0"
	}
	return t.Rounded(4)
}

// timeLabel prints t, with a bare "0" for the origin.
func timeLabel(t units.Time) string {
	if t == 0 {
		return "0"
	}
	return t.String()
}

// legendEntries are the swatches in the legend of a collective, in order.
var legendEntries = [...]legendEntry{
	{"forward", "forward", stateStyle[Forward].fill, Color{}},
	{"backward", "backward", stateStyle[Backward].fill, Color{}},
	{"communication", "communication", stateStyle[Communicating].fill, Color{}},
	{"idle", "idle", stateStyle[Idle].fill, Color{}},
	{"done", "done", stateStyle[Done].fill, Color{}},
	{"reduce-scatter", "chunk, reduce-scatter", colWhite, colReduceScatter},
	{"all-gather", "chunk, all-gather", colWhite, colAllGather},
}

// legendEntry is one swatch of the legend.
type legendEntry struct {
	key, label string
	fill       Color
	border     Color
}

// legendItem is a legendEntry with the IDs of its two items.
type legendItem struct {
	legendEntry
	swatchID, labelID string
}

// kindLabel names a span kind in the legend, with the letter its spans'
// labels start with.
func kindLabel(k timeline.Kind) string {
	switch k {
	case timeline.Forward:
		return "forward F"
	case timeline.Backward:
		return "backward B"
	case timeline.BackwardWeight:
		return "weight grad W"
	case timeline.TPComm:
		return "TP comm"
	case timeline.CPComm:
		return "CP comm"
	case timeline.EPComm:
		return "EP comm"
	case timeline.Prefill:
		return "prefill P"
	case timeline.Decode:
		return "decode D"
	case timeline.Sample:
		return "sample S"
	case timeline.Host:
		return "host work H"
	}
	return string(k)
}

// legend draws one row of swatches at baseline y, dropping entries that would
// run off a narrow canvas (a compact frame wraps them onto more rows
// instead), and returns the baseline of its last row. A strip that shows
// one row per stage says so at the right, and the legend stops short of
// that note.
func (b *builder) legend(y float64) float64 {
	s := b.fs // the swatches keep pace with the text
	x, size := 12*b.s, 12*s
	right := b.w - 8*s
	if note := b.f.rows.note; note != "" {
		nsize := 10 * b.fs
		if text := truncate(note, nsize, b.w/2); text != "" {
			b.text("strip/note", b.w-12*b.s, y, text, nsize, colMuted, AnchorEnd)
			right -= textWidth(text, nsize) + 12*b.s
		}
	}
	if b.f.legend == nil { // the entries depend on the run only
		for _, e := range b.f.look.legend(b.f) {
			b.f.legend = append(b.f.legend, legendItem{e, "legend/" + e.key + "/swatch", "legend/" + e.key + "/label"})
		}
	}
	for _, e := range b.f.legend {
		next := x + 18*s + textWidth(e.label, size)
		if next > right && b.compact && x > 12*b.s {
			x, y, right = 12*b.s, y+size+6*s, b.w-8*s
			next = x + 18*s + textWidth(e.label, size)
		}
		if next > right {
			return y
		}
		sw := b.rect(e.swatchID, x, y-10*s, 12*s, 12*s, e.fill)
		if e.border.A != 0 {
			sw.Stroke, sw.StrokeWidth = e.border, 2*s
		}
		b.text(e.labelID, x+17*s, y, e.label, size, colText, AnchorStart)
		if x = next + 14*s; len(e.label) < 3 {
			x = next + 6*s // a channel's number: the swatches stay together
		}
	}
	return y
}

// empty draws the message shown instead of a run that has no GPUs.
func (b *builder) empty(tl *timeline.Timeline) {
	msg := "No timeline to show."
	if tl != nil {
		msg = "This run has no GPUs to show."
		if tl.Title != "" {
			b.text("header/title", 12*b.s, 24*b.fs, truncate(tl.Title, 16*b.fs, b.w-24*b.s), 16*b.fs, colText, AnchorStart).Bold = true
		}
	}
	b.text("message", b.w/2, b.h/2, msg, 16*b.fs, colMuted, AnchorMiddle)
}

func itoa(i int) string { return strconv.Itoa(i) }

// gpuName is gpuName for the prepared run, "GPU <i>" made once.
func (f *Frames) gpuName(i int) string {
	if n := f.tl.GPUs[i].Name; n != "" {
		return n
	}
	return f.ids.gpuName.at(i)
}

func gpuName(tl *timeline.Timeline, i int) string {
	if n := tl.GPUs[i].Name; n != "" {
		return n
	}
	return "GPU " + itoa(i)
}
