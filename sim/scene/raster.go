package scene

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"golang.org/x/image/vector"
)

// Raster draws draw lists into RGBA images in pure Go, with the embedded Go
// fonts, so the command line and the browser export the same pixels. The
// picture follows WriteSVG's reading of the list: rectangles filled then
// outlined with the stroke centred on the edge, lines with round caps, text
// on its baseline aligned by its anchor. Edges are anti-aliased by exact
// area coverage (rectangles) or by x/image/vector (lines).
//
// A Raster keeps its canvas, its parsed fonts and a cache of rendered
// glyphs between calls, so one Raster serves every frame of an animation;
// it is not safe for concurrent use.
type Raster struct {
	img   *image.RGBA
	fonts *rasterFonts
	vec   vector.Rasterizer
}

// NewRaster parses the embedded fonts; it fails only if they are corrupt.
func NewRaster() (*Raster, error) {
	f, err := newRasterFonts()
	if err != nil {
		return nil, err
	}
	return &Raster{fonts: f}, nil
}

// Draw paints dl on a canvas of ceil(Width)×ceil(Height) pixels and
// returns it. The image belongs to the Raster and is overwritten by the
// next Draw; copy it to keep it. Draw returns an error, and no image, for a
// canvas size or item number that is not finite or a size outside
// [1, MaxSize].
func (r *Raster) Draw(dl DrawList) (*image.RGBA, error) {
	if err := checkFinite(dl); err != nil {
		return nil, err
	}
	w, h := int(math.Ceil(dl.Width)), int(math.Ceil(dl.Height))
	if w < 1 || h < 1 || w > MaxSize || h > MaxSize {
		return nil, fmt.Errorf("scene: canvas %v×%v; want each side 1..%d pixels", dl.Width, dl.Height, MaxSize)
	}
	if r.img == nil || r.img.Rect.Dx() != w || r.img.Rect.Dy() != h {
		r.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	bg := dl.Background
	bg.A = 255 // the canvas is opaque, as the browser's is
	fill(r.img.Pix, bg)
	for i := range dl.Items {
		r.item(&dl.Items[i])
	}
	return r.img, nil
}

func fill(pix []byte, c Color) {
	for i := 0; i+3 < len(pix); i += 4 {
		pix[i], pix[i+1], pix[i+2], pix[i+3] = c.R, c.G, c.B, 255
	}
}

func (r *Raster) item(it *Item) {
	switch it.Shape {
	case Rect:
		r.rect(it)
	case Line:
		if it.Stroke.A != 0 {
			r.line(it.X, it.Y, it.X2, it.Y2, max(it.StrokeWidth, 0), it.Stroke)
		}
	case Text:
		if it.Text != "" && it.Fill.A != 0 && it.Size > 0 {
			r.fonts.draw(r.img, it)
		}
	}
}

// rect fills the box, then strokes its outline centred on the edge as four
// bands that do not overlap, so a translucent outline stays even.
func (r *Raster) rect(it *Item) {
	x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	if it.Fill.A != 0 {
		r.box(x0, y0, x1, y1, it.Fill)
	}
	sw := it.StrokeWidth
	if it.Stroke.A == 0 || !(sw > 0) {
		return
	}
	h := sw / 2
	ox0, oy0, ox1, oy1 := x0-h, y0-h, x1+h, y1+h
	ix0, iy0, ix1, iy1 := x0+h, y0+h, x1-h, y1-h
	if ix1 <= ix0 || iy1 <= iy0 { // the outline covers the whole box
		r.box(ox0, oy0, ox1, oy1, it.Stroke)
		return
	}
	r.box(ox0, oy0, ox1, iy0, it.Stroke)
	r.box(ox0, iy1, ox1, oy1, it.Stroke)
	r.box(ox0, iy0, ix0, iy1, it.Stroke)
	r.box(ix1, iy0, ox1, iy1, it.Stroke)
}

// box blends c over the axis-aligned box [x0,x1)×[y0,y1), weighting each
// pixel by the area of it the box covers.
func (r *Raster) box(x0, y0, x1, y1 float64, c Color) {
	b := r.img.Rect
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, float64(b.Max.X)), min(y1, float64(b.Max.Y))
	if !(x1 > x0 && y1 > y0) {
		return
	}
	px0, py0 := int(x0), int(y0)
	px1, py1 := int(math.Ceil(x1)), int(math.Ceil(y1))
	for py := py0; py < py1; py++ {
		cy := min(y1, float64(py+1)) - max(y0, float64(py))
		row := r.img.Pix[py*r.img.Stride:]
		for px := px0; px < px1; px++ {
			cx := min(x1, float64(px+1)) - max(x0, float64(px))
			blend(row[4*px:4*px+4], c, cx*cy)
		}
	}
}

// blend mixes c at coverage cov (0..1) times its own alpha over the opaque
// pixel p.
func blend(p []byte, c Color, cov float64) {
	a := int(cov*float64(c.A) + 0.5)
	if a <= 0 {
		return
	}
	if a >= 255 {
		p[0], p[1], p[2] = c.R, c.G, c.B
		return
	}
	p[0] = uint8((int(c.R)*a + int(p[0])*(255-a) + 127) / 255)
	p[1] = uint8((int(c.G)*a + int(p[1])*(255-a) + 127) / 255)
	p[2] = uint8((int(c.B)*a + int(p[2])*(255-a) + 127) / 255)
}

// capSegments is how many straight segments approximate each round cap.
const capSegments = 8

// line strokes a segment of width w with round caps (as the SVG encoder's
// stroke-linecap="round"): the outline of a capsule, filled with
// x/image/vector over the capsule's bounding box only.
func (r *Raster) line(x0, y0, x1, y1, w float64, c Color) {
	if w == 0 {
		w = 1 // as the browser draws a zero-width line
	}
	h := w / 2
	bx0, by0 := int(math.Floor(min(x0, x1)-h)), int(math.Floor(min(y0, y1)-h))
	bx1, by1 := int(math.Ceil(max(x0, x1)+h)), int(math.Ceil(max(y0, y1)+h))
	bounds := image.Rect(bx0, by0, bx1, by1).Intersect(r.img.Rect)
	if bounds.Empty() {
		return
	}
	dx, dy := x1-x0, y1-y0
	angle := math.Atan2(dy, dx)
	r.vec.Reset(bounds.Dx(), bounds.Dy())
	ox, oy := float64(bounds.Min.X), float64(bounds.Min.Y)
	first := true
	arc := func(cx, cy, from float64) {
		for k := 0; k <= capSegments; k++ {
			a := from + math.Pi*float64(k)/capSegments
			x, y := float32(cx+h*math.Cos(a)-ox), float32(cy+h*math.Sin(a)-oy)
			if first {
				r.vec.MoveTo(x, y)
				first = false
			} else {
				r.vec.LineTo(x, y)
			}
		}
	}
	arc(x1, y1, angle-math.Pi/2) // round the far end
	arc(x0, y0, angle+math.Pi/2) // and come back round the near end
	r.vec.ClosePath()
	r.vec.Draw(r.img, bounds, image.NewUniform(color.NRGBA{c.R, c.G, c.B, c.A}), image.Point{})
}
