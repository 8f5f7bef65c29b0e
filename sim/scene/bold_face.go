package scene

import (
	"image"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// boldFace draws a face's glyphs emboldened: each glyph's coverage is
// spread over `extra` more pixels to the right (the maximum of the mask and
// its shifted copies) and its advance grows by as much, as printers'
// "overstrike" bold did. It stands in for a second font file: Go Bold
// would add about 70 KB to the browser app's gzipped download, a sixtieth
// of its budget, for headings and badges.
type boldFace struct {
	font.Face
	extra int
}

// newBoldFace emboldens f drawn at size pixels: one pixel per 16 of size,
// at least one.
func newBoldFace(f font.Face, size float64) boldFace {
	return boldFace{Face: f, extra: max(1, int(math.Round(size/16)))}
}

func (b boldFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	dr, mask, mp, adv, ok := b.Face.Glyph(dot, r)
	if !ok || dr.Empty() {
		return dr, mask, mp, adv + fixed.I(b.extra), ok
	}
	w, h := dr.Dx(), dr.Dy()
	out := image.NewAlpha(image.Rect(0, 0, w+b.extra, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
			if a == 0 {
				continue
			}
			v := uint8(a >> 8)
			for j := 0; j <= b.extra; j++ {
				i := out.PixOffset(x+j, y)
				out.Pix[i] = max(out.Pix[i], v)
			}
		}
	}
	dr.Max.X += b.extra
	return dr, out, image.Point{}, adv + fixed.I(b.extra), true
}

func (b boldFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	bounds, adv, ok := b.Face.GlyphBounds(r)
	bounds.Max.X += fixed.I(b.extra)
	return bounds, adv + fixed.I(b.extra), ok
}

func (b boldFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	adv, ok := b.Face.GlyphAdvance(r)
	return adv + fixed.I(b.extra), ok
}
