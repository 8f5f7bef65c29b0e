package scene

import (
	"maps"
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Overlay dresses the frame of a run whose strategy lives outside package
// scene. A strategy's record in the timeline implements it to add its own
// items (a badge, a caption, a meter) or to edit the ones the scene drew,
// the way the built-in strategies dress theirs, without editing package
// scene.
//
// Build calls Overlay once the frame is laid out (header, network view,
// panel, legend and strip), so Find sees every item and what Overlay adds
// is drawn on top. Overlay must be deterministic, must not keep c, and
// should name the items it adds with IDs unique in the frame, best started
// with the strategy's name ("beacon/…"). A themed or presented frame is
// derived from the items afterwards, as for every other item.
type Overlay interface {
	Overlay(c *Canvas, tl *timeline.Timeline, t units.Time)
}

// Canvas is the frame an Overlay draws on: the items laid out so far, the
// canvas's size and the sizes and colours of the scene's look. It is
// valid only during the call to Overlay. (It is the frame's own builder
// under another name, so that handing it over costs nothing.)
type Canvas builder

// Size is the width and height of the frame, in pixels.
func (c *Canvas) Size() (w, h float64) { return c.w, c.h }

// Scale is the factor from the 960×600 design to this frame: multiply
// fixed sizes (gaps, strokes, box edges) by it.
func (c *Canvas) Scale() float64 { return c.s }

// TextSize is a font size of the 960×600 design (13 for a caption, 11 for
// a label) as the scene sizes its own text on this frame: it shrinks less
// than Scale on small canvases and grows in presenter mode.
func (c *Canvas) TextSize(design float64) float64 { return design * c.fs }

// NetworkWidth is the width of the network view at the left of the frame;
// a training run's metrics and memory column takes the rest.
func (c *Canvas) NetworkWidth() float64 { return c.vw }

// TextColor is the colour of the scene's text.
func (c *Canvas) TextColor() Color { return colText }

// MutedColor is the colour of the scene's secondary text (axis labels,
// notes).
func (c *Canvas) MutedColor() Color { return colMuted }

// Find returns the item with the given ID (see the package documentation
// for the scene's IDs), or nil. It scans the frame; the pointer is valid
// until the next Add.
func (c *Canvas) Find(id string) *Item {
	for i := range c.items {
		if c.items[i].ID == id {
			return &c.items[i]
		}
	}
	return nil
}

// Add appends it to the frame, on top of the items before it.
func (c *Canvas) Add(it Item) { c.items = append(c.items, it) }

// overlays calls the Overlays of the frame's run (Frames.extras).
func (b *builder) overlays(t units.Time) {
	if len(b.f.extras) == 0 {
		return
	}
	for _, o := range b.f.extras {
		o.Overlay((*Canvas)(b), b.f.tl, t)
	}
}

// extraOverlays are the Overlays of the records tl carries for strategies
// outside package scene.
func extraOverlays(tl *timeline.Timeline) []Overlay {
	return overlaysByKey(tl.Extra)
}

// overlaysByKey returns, sorted by key so that frames are deterministic,
// the records that implement Overlay.
func overlaysByKey[R any](records map[string]R) []Overlay {
	var out []Overlay
	for _, k := range slices.Sorted(maps.Keys(records)) {
		if o, ok := any(records[k]).(Overlay); ok {
			out = append(out, o)
		}
	}
	return out
}
