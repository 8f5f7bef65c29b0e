package scene

import (
	"fmt"

	"paraplay/sim/units"
)

// View is the part of a frame to draw.
type View string

// The views. ViewAll is the zero value.
const (
	ViewAll      View = ""
	ViewCluster  View = "cluster"  // the network view and the legend
	ViewTimeline View = "timeline" // the legend and the strip
	ViewMemory   View = "memory"   // a training run's metrics and memory bars
)

// Views lists the view names a caller may pass, "all" first.
var Views = []string{"all", string(ViewCluster), string(ViewTimeline), string(ViewMemory)}

// ParseView reads a view name; "all" and "" are ViewAll.
func ParseView(s string) (View, error) {
	v := View(s)
	if s == "all" {
		v = ViewAll
	}
	return v, v.validate()
}

func (v View) validate() error {
	switch v {
	case ViewAll, ViewCluster, ViewTimeline, ViewMemory:
		return nil
	}
	return fmt.Errorf("scene: view %q; want one of all, cluster, timeline, memory", string(v))
}

// region is a rectangle by its corners.
type region struct{ x0, y0, x1, y1 float64 }

// viewRegion is where view v sits on a full frame of size w×h, from the
// layout build uses: the network band ends at 0.58·h, the legend's
// swatches start 8·s below it and the strip 30·s below, and a training
// run's panel takes the right-hand panelWidth from 30·fs down.
func (f *Frames) viewRegion(v View, w, h float64, opt Options) (region, bool) {
	b := &builder{w: w, h: h, s: min(w/DefaultWidth, h/DefaultHeight), f: f}
	b.fs = max(b.s, 0.7) * opt.textScale()
	vw := w
	if f.training {
		vw = w - b.panelWidth()
	}
	band := 0.58 * h
	switch v {
	case ViewCluster:
		return region{0, 0, vw, band + 24*b.s}, true
	case ViewTimeline:
		return region{0, band + 4*b.s, w, h}, true
	case ViewMemory:
		if !f.training {
			return region{}, false
		}
		return region{vw, 30 * b.fs, w, band}, true
	}
	return region{0, 0, w, h}, true
}

// buildView draws the part of the frame that opt.View names, laid out on
// a larger canvas chosen so that the part comes out near the requested
// size, then cropped and scaled uniformly to fit, centred.
func (f *Frames) buildView(t units.Time, opt Options) DrawList {
	w, h := opt.size()
	probe, ok := f.viewRegion(opt.View, w, h, opt)
	if !ok || f.tl == nil || len(f.tl.GPUs) == 0 {
		full := opt
		full.View = ViewAll
		dl := f.build(t, full)
		if !ok {
			dl.Items = nil
			b := &builder{w: w, h: h, s: min(w/DefaultWidth, h/DefaultHeight), f: f}
			b.fs = max(b.s, 0.7)
			b.text("message", w/2, h/2, "This run has no memory panel (not a training run).", 16*b.fs, colMuted, AnchorMiddle)
			dl.Items = b.items
		}
		return dl
	}
	vw := min(w*w/(probe.x1-probe.x0), MaxSize)
	vh := min(h*h/(probe.y1-probe.y0), MaxSize)
	virt := opt
	virt.Width, virt.Height, virt.View = vw, vh, ViewAll
	full := f.build(t, virt)
	r, _ := f.viewRegion(opt.View, vw, vh, opt)
	k := min(w/(r.x1-r.x0), h/(r.y1-r.y0))
	dx := (w-k*(r.x1-r.x0))/2 - k*r.x0
	dy := (h-k*(r.y1-r.y0))/2 - k*r.y0
	out := DrawList{Width: w, Height: h, Background: full.Background, Items: full.Items[:0]}
	for _, it := range full.Items {
		if !it.inside(r) {
			continue
		}
		it.X, it.Y = k*it.X+dx, k*it.Y+dy
		it.X2, it.Y2 = k*it.X2+dx, k*it.Y2+dy
		it.W, it.H = k*it.W, k*it.H
		it.StrokeWidth, it.Size = k*it.StrokeWidth, k*it.Size
		out.Items = append(out.Items, it)
	}
	return out
}

// inside reports whether the item reaches into r (text by its anchor).
func (it *Item) inside(r region) bool {
	x0, y0, x1, y1 := it.X, it.Y, it.X, it.Y
	switch it.Shape {
	case Rect:
		x0, x1 = min(it.X, it.X+it.W), max(it.X, it.X+it.W)
		y0, y1 = min(it.Y, it.Y+it.H), max(it.Y, it.Y+it.H)
	case Line:
		x0, x1 = min(it.X, it.X2), max(it.X, it.X2)
		y0, y1 = min(it.Y, it.Y2), max(it.Y, it.Y2)
	case Text:
		y0 = it.Y - it.Size/2
	}
	return x1 >= r.x0 && x0 <= r.x1 && y1 >= r.y0 && y0 <= r.y1
}
