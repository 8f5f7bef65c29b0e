package scene

import (
	"errors"
	"fmt"
	"math"
)

// Default and allowed canvas sizes, in logical pixels.
const (
	DefaultWidth  = 960
	DefaultHeight = 600
	// MinSize keeps the layout readable: below it the boxes and rows
	// collapse to nothing.
	MinSize = 64
	// MaxSize bounds memory in raster backends (16384² RGBA is 1 GiB).
	MaxSize = 16384
	// MaxGIFPixels bounds a GIF frame's area: while a frame is encoded the
	// encoder holds its RGBA canvas (4 bytes a pixel), this frame's and the
	// last one's palette indices (1 each) and the changed box (up to 1),
	// about gifBytesPerPixel bytes a pixel with the collector's slack: at
	// 8192×8192 that measured 0.59 GB of resident memory, so 16384×16384
	// would need about 2.3 GB. A slide needs a tenth of that side.
	MaxGIFPixels = 8192 * 8192
	// gifBytesPerPixel is the encoder's memory per pixel of a frame
	// (measured: 590 MB resident at 8192×8192, 9 bytes a pixel).
	gifBytesPerPixel = 9
)

// Options configure Build.
type Options struct {
	// Width is the canvas width in logical pixels; zero means DefaultWidth.
	Width float64
	// Height is the canvas height in logical pixels; zero means
	// DefaultHeight. The layout is designed for landscape canvases.
	Height float64
	// Theme is the colour scheme: ThemeLight (the zero value) or ThemeDark.
	Theme Theme
	// Present draws for a projector: text PresentTextScale times larger
	// and lines PresentLineScale times thicker (presenter mode, present=1).
	Present bool
	// View is the part of the frame to draw (ViewAll, the zero value,
	// draws everything); the part is laid out to fill the canvas.
	View View
	// MinText is the smallest text to draw, in logical pixels, 0..MaxMinText
	// (0 draws every label): an optional label that would come out smaller
	// — a span's label in a strip row too thin for it — is left out. An
	// article's poster sets it so that, at the width the page shows the
	// poster, no text is below the site's 11 CSS px.
	MinText float64
	// Compact lays the frame out for a narrow column (a phone's, about
	// CompactWidth CSS px wide) instead of shrinking the 960-px design into
	// it: sizes follow the canvas's width over CompactWidth, a training
	// run's side panel is left out, the legend wraps onto as many rows as
	// it needs, and no text is smaller than MinText. It applies to the
	// whole frame (ViewAll); a View is cut from the full layout.
	Compact bool
}

// CompactWidth is the column width, in logical pixels, a compact frame is
// designed for: a 390-px phone's column less the page's margins.
const CompactWidth = 340

// compactGeometry is the scale of a compact frame's fixed sizes (margins,
// boxes, swatches) per unit of width/CompactWidth: between the 960-px
// design's (0.35 at 340 px) and its text's (1), so that GPU boxes hold
// their labels.
const compactGeometry = 0.6

// MaxMinText bounds MinText (4× the largest span label of a 960-px frame
// on a 2× screen): a larger value would only leave every label out.
const MaxMinText = 64

// Validate reports sizes that are not finite, negative, or outside
// [MinSize, MaxSize] (zero is allowed and means the default).
func (o Options) Validate() error {
	var minText error
	if !(o.MinText >= 0 && o.MinText <= MaxMinText) {
		minText = fmt.Errorf("scene: min text is %v; want 0..%d pixels", o.MinText, MaxMinText)
	}
	return errors.Join(checkSize("width", o.Width), checkSize("height", o.Height), o.Theme.validate(), o.View.validate(), minText)
}

func checkSize(name string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("scene: %s is %v; want a finite number of pixels", name, v)
	case v < 0:
		return fmt.Errorf("scene: %s is %v; want a positive number of pixels (or 0 for the default)", name, v)
	case v > 0 && v < MinSize:
		return fmt.Errorf("scene: %s is %v; want at least %d pixels", name, v, MinSize)
	case v > MaxSize:
		return fmt.Errorf("scene: %s is %v; want at most %d pixels", name, v, MaxSize)
	}
	return nil
}

// size returns the canvas size Build uses. A field that is zero or fails
// Validate falls back to its default, so Build never draws on a degenerate
// canvas (callers that want to reject bad input call Validate first).
func (o Options) size() (w, h float64) {
	w, h = o.Width, o.Height
	if w == 0 || checkSize("", w) != nil {
		w = DefaultWidth
	}
	if h == 0 || checkSize("", h) != nil {
		h = DefaultHeight
	}
	return w, h
}
