package scene

import (
	"math"
	"sort"
	"unicode/utf8"
)

// Region is an axis-aligned region of the canvas in whole pixels: the pixels
// (x, y) with X0 ≤ x < X1 and Y0 ≤ y < Y1.
type Region struct{ X0, Y0, X1, Y1 int }

// Empty reports whether the region holds no pixel.
func (r Region) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// Area is the number of pixels in the region.
func (r Region) Area() int {
	if r.Empty() {
		return 0
	}
	return (r.X1 - r.X0) * (r.Y1 - r.Y0)
}

// Overlaps reports whether the regions share a pixel.
func (r Region) Overlaps(o Region) bool {
	return r.X0 < o.X1 && o.X0 < r.X1 && r.Y0 < o.Y1 && o.Y0 < r.Y1
}

// union is the smallest region holding both.
func (r Region) union(o Region) Region {
	if r.Empty() {
		return o
	}
	if o.Empty() {
		return r
	}
	return Region{min(r.X0, o.X0), min(r.Y0, o.Y0), max(r.X1, o.X1), max(r.Y1, o.Y1)}
}

// Bounds returns every pixel a backend may touch when it draws the item,
// with a pixel to spare for rounding and edge coverage. Text is bounded by
// a deliberately wide advance (0.75 em per character; the fonts average
// about 0.56) and from an ascent of 1.1 em above the baseline to a descent
// of 0.4 em below it, so that no glyph of the embedded fonts reaches out.
func (it *Item) Bounds() Region {
	var x0, y0, x1, y1 float64
	switch it.Shape {
	case Rect:
		half := 0.0
		if it.Stroke.A > 0 {
			half = it.StrokeWidth / 2
		}
		x0, y0 = it.X-half, it.Y-half
		x1, y1 = it.X+it.W+half, it.Y+it.H+half
	case Line:
		half := max(it.StrokeWidth, 1) / 2
		x0, x1 = min(it.X, it.X2)-half, max(it.X, it.X2)+half
		y0, y1 = min(it.Y, it.Y2)-half, max(it.Y, it.Y2)+half
	case Text:
		w := 0.75 * it.Size * float64(utf8.RuneCountInString(it.Text))
		switch it.Anchor {
		case AnchorMiddle:
			x0 = it.X - w/2
		case AnchorEnd:
			x0 = it.X - w
		default:
			x0 = it.X
		}
		x1 = x0 + w
		y0, y1 = it.Y-1.1*it.Size, it.Y+0.4*it.Size
	default:
		return Region{}
	}
	if !(x0 <= x1 && y0 <= y1) || math.IsInf(x0, 0) || math.IsInf(x1, 0) || math.IsInf(y0, 0) || math.IsInf(y1, 0) {
		return Region{}
	}
	return Region{int(math.Floor(x0)) - 1, int(math.Floor(y0)) - 1, int(math.Ceil(x1)) + 1, int(math.Ceil(y1)) + 1}
}

// Damage finds the parts of the canvas that change from one frame to the
// next, so that a backend whose canvas keeps its pixels between frames (the
// browser's) repaints only those: every pixel outside the returned regions
// is the same in both frames.
//
// Why it holds: Update pairs the items of the two frames in order (equal
// items at equal places, or re-found by ID after an insertion or a
// deletion); every item left unpaired or changed marks its Bounds in both
// frames as damaged. A pixel outside every damaged region is therefore
// painted, in both frames, by the same items in the same order over the
// same background, and so has the same colour. Repainting a region means
// filling it with the background and drawing, clipped to it, every item of
// the new frame that overlaps it.
//
// A Damage keeps a copy of the last frame; it is not safe for concurrent
// use. The zero value is ready: its first Update reports the whole canvas.
type Damage struct {
	prev      []Item
	prevW     float64
	prevH     float64
	prevBG    Color
	valid     bool
	rects     []Region
	merged    []Region
	maxRegion int
}

// MaxRegions bounds how many regions Update returns: beyond it, nearby
// regions are merged (each region costs the browser one draw call).
const MaxRegions = 32

// fullFraction is the share of the canvas beyond which repainting it all is
// simpler than repainting regions (and, for the browser, no slower).
const fullFraction = 0.75

// Invalidate makes the next Update report the whole canvas: call it when
// the canvas was drawn by something else in between.
func (d *Damage) Invalidate() { d.valid = false }

// Update compares dl with the previous frame and remembers dl. It returns
// full = true when the whole canvas must be repainted (the first frame, a
// new size or background, or damage over most of it); otherwise the
// regions to repaint, disjoint and within the canvas, possibly none. The
// returned slice is reused by the next Update.
func (d *Damage) Update(dl DrawList) (regions []Region, full bool) {
	canvas := Region{0, 0, int(math.Ceil(dl.Width)), int(math.Ceil(dl.Height))}
	full = !d.valid || dl.Width != d.prevW || dl.Height != d.prevH || dl.Background != d.prevBG
	d.rects = d.rects[:0]
	if !full {
		d.diff(dl.Items)
		full = d.merge(canvas)
	}
	d.prev = append(d.prev[:0], dl.Items...)
	d.prevW, d.prevH, d.prevBG, d.valid = dl.Width, dl.Height, dl.Background, true
	if full {
		return nil, true
	}
	return d.merged, false
}

// resync is how far ahead Update looks for an item's ID after a mismatch.
const resync = 64

// diff pairs cur with d.prev in order and records the bounds of every item
// not paired with an equal one.
func (d *Damage) diff(cur []Item) {
	prev := d.prev
	i, j := 0, 0
	for i < len(cur) && j < len(prev) {
		if cur[i] == prev[j] {
			i, j = i+1, j+1
			continue
		}
		if cur[i].ID == prev[j].ID { // changed in place
			d.mark(&cur[i])
			d.mark(&prev[j])
			i, j = i+1, j+1
			continue
		}
		// Something was inserted or deleted: find the nearer of prev[j]
		// further on in cur (insertion) or cur[i] further on in prev
		// (deletion).
		ins, del := -1, -1
		for k := 1; k <= resync; k++ {
			if ins < 0 && i+k < len(cur) && cur[i+k].ID == prev[j].ID {
				ins = k
			}
			if del < 0 && j+k < len(prev) && prev[j+k].ID == cur[i].ID {
				del = k
			}
			if ins >= 0 || del >= 0 {
				break
			}
		}
		switch {
		case ins >= 0:
			for ; ins > 0; ins-- {
				d.mark(&cur[i])
				i++
			}
		case del >= 0:
			for ; del > 0; del-- {
				d.mark(&prev[j])
				j++
			}
		default:
			d.mark(&cur[i])
			d.mark(&prev[j])
			i, j = i+1, j+1
		}
	}
	for ; i < len(cur); i++ {
		d.mark(&cur[i])
	}
	for ; j < len(prev); j++ {
		d.mark(&prev[j])
	}
}

func (d *Damage) mark(it *Item) {
	if r := it.Bounds(); !r.Empty() {
		d.rects = append(d.rects, r)
	}
}

// merge clips the recorded bounds to the canvas and merges them into at
// most MaxRegions disjoint regions; it reports true when they cover so much
// of the canvas that repainting all of it is the better choice.
func (d *Damage) merge(canvas Region) (full bool) {
	rs := d.merged[:0]
	for _, r := range d.rects {
		r = Region{max(r.X0, canvas.X0), max(r.Y0, canvas.Y0), min(r.X1, canvas.X1), min(r.Y1, canvas.Y1)}
		if !r.Empty() {
			rs = append(rs, r)
		}
	}
	// Many small regions (a frame where much moved) are first gathered
	// into horizontal bands, which bounds the pairwise merging below.
	if len(rs) > 4*MaxRegions {
		var bands [MaxRegions]Region
		bh := max(1, (canvas.Y1-canvas.Y0+MaxRegions-1)/MaxRegions)
		for _, r := range rs {
			k := min(MaxRegions-1, (r.Y0-canvas.Y0)/bh)
			bands[k] = bands[k].union(r)
		}
		rs = rs[:0]
		for _, r := range bands {
			if !r.Empty() {
				rs = append(rs, r)
			}
		}
	}
	// Overlapping regions become their union until none overlap; when
	// there are too many, the closest pair (smallest union) merges too.
	d.merged = rs
	sort.Sort((*byTop)(&d.merged)) // a pointer: no allocation, as a frame must make none
	for {
		changed := false
		for a := 0; a < len(rs); a++ {
			for b := a + 1; b < len(rs); b++ {
				if rs[a].Overlaps(rs[b]) {
					rs[a] = rs[a].union(rs[b])
					rs[b] = rs[len(rs)-1]
					rs = rs[:len(rs)-1]
					b = a
					changed = true
				}
			}
		}
		if len(rs) <= MaxRegions {
			if !changed {
				break
			}
			continue
		}
		ba, bb, best := 0, 1, math.MaxInt
		for a := 0; a < len(rs); a++ {
			for b := a + 1; b < len(rs); b++ {
				if c := rs[a].union(rs[b]).Area() - rs[a].Area() - rs[b].Area(); c < best {
					ba, bb, best = a, b, c
				}
			}
		}
		rs[ba] = rs[ba].union(rs[bb])
		rs[bb] = rs[len(rs)-1]
		rs = rs[:len(rs)-1]
	}
	d.merged = rs
	area := 0
	for _, r := range rs {
		area += r.Area()
	}
	return float64(area) > fullFraction*float64(canvas.Area())
}

// byTop orders regions by their top edge (sort.Interface on a pointer, so
// that sorting allocates nothing). sort.Sort rather than slices.SortFunc:
// each element type slices sorts is another copy of pdqsort in the wasm
// (about 4 KB gzipped); sort's one copy serves all.
type byTop []Region

func (s *byTop) Len() int           { return len(*s) }
func (s *byTop) Less(i, j int) bool { return (*s)[i].Y0 < (*s)[j].Y0 }
func (s *byTop) Swap(i, j int)      { (*s)[i], (*s)[j] = (*s)[j], (*s)[i] }
