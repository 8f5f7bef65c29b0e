package scene

import (
	"image"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"paraplay/sim/scene/textfont"
)

// TextFonts is the Go Regular font (the textfont subset), parsed once, with its faces cached by
// size and weight (bold ones emboldened, boldFace). Exported frames (Raster) and the browser
// app both draw their text with them, so an exported frame matches the
// live one; each keeps its own glyph cache per face.
type TextFonts struct {
	regular *opentype.Font
	faces   map[faceKey]font.Face
}

// faceKey names a face: its size in pixels and its weight.
type faceKey struct {
	size float64
	bold bool
}

// NewTextFonts parses the embedded Go font. It ships inside the binary, so
// neither the CLI nor the page reads a font file.
func NewTextFonts() (*TextFonts, error) {
	reg, err := opentype.Parse(textfont.GoRegular)
	if err != nil {
		return nil, err
	}
	return &TextFonts{regular: reg, faces: map[faceKey]font.Face{}}, nil
}

// Face returns the face for size (in pixels at 72 DPI, unhinted) and
// weight, made on first use. Sizes are rounded to a quarter pixel so that
// scaled layouts share faces, and so their glyph caches.
func (f *TextFonts) Face(size float64, bold bool) font.Face {
	k := faceKey{math.Round(size*4) / 4, bold}
	if face, ok := f.faces[k]; ok {
		return face
	}
	// opentype.NewFace only scales the font: it returns no error.
	face, _ := opentype.NewFace(f.regular, &opentype.FaceOptions{Size: k.size, DPI: 72, Hinting: font.HintingNone})
	if bold {
		face = newBoldFace(face, k.size)
	}
	f.faces[k] = face
	return face
}

// rasterFonts writes text items with the TextFonts faces. Glyphs are
// rendered once per (face, rune, quarter-pixel offset) and blended from the
// cache afterwards: an animation redraws the same labels every frame.
type rasterFonts struct {
	text  *TextFonts
	faces map[font.Face]*rasterFace
}

type rasterFace struct {
	face   font.Face
	glyphs map[glyphKey]*glyph
}

// glyphKey is a rune at one of subpixels horizontal offsets.
type glyphKey struct {
	r   rune
	sub int
}

// subpixels is how many horizontal offsets within a pixel a glyph is
// rendered at, so spacing stays even without a render per letter.
const subpixels = 4

// glyph is a rendered rune: its coverage mask placed at rect relative to
// the pen on the baseline, and how far it moves the pen.
type glyph struct {
	mask    *image.Alpha
	rect    image.Rectangle
	advance fixed.Int26_6
}

func newRasterFonts() (*rasterFonts, error) {
	text, err := NewTextFonts()
	if err != nil {
		return nil, err
	}
	return &rasterFonts{text: text, faces: map[font.Face]*rasterFace{}}, nil
}

// face returns the face and glyph cache for size and weight; a size below a
// quarter pixel draws at a quarter pixel.
func (f *rasterFonts) face(size float64, bold bool) *rasterFace {
	face := f.text.Face(max(size, 0.25), bold)
	if fc, ok := f.faces[face]; ok {
		return fc
	}
	fc := &rasterFace{face: face, glyphs: map[glyphKey]*glyph{}}
	f.faces[face] = fc
	return fc
}

// glyph renders r at subpixel offset sub, or returns the cached one.
func (fc *rasterFace) glyph(r rune, sub int) *glyph {
	k := glyphKey{r, sub}
	if g, ok := fc.glyphs[k]; ok {
		return g
	}
	g := &glyph{}
	dot := fixed.Point26_6{X: fixed.Int26_6(sub * 64 / subpixels)}
	dr, mask, mp, adv, ok := fc.face.Glyph(dot, r)
	if !ok {
		dr, mask, mp, adv, ok = fc.face.Glyph(dot, '?')
	}
	if ok {
		g.advance, g.rect = adv, dr
		// The face reuses its mask buffer: copy the glyph out.
		g.mask = image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
				g.mask.Pix[y*g.mask.Stride+x] = uint8(a >> 8)
			}
		}
	}
	fc.glyphs[k] = g
	return g
}

// width is the advance of s in pixels, kerning included.
func (fc *rasterFace) width(s string) float64 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += fc.face.Kern(prev, r)
		}
		w += fc.glyph(r, 0).advance
		prev = r
	}
	return float64(w) / 64
}

// draw writes a Text item into img.
func (f *rasterFonts) draw(img *image.RGBA, it *Item) {
	fc := f.face(it.Size, it.Bold)
	x := it.X
	switch it.Anchor {
	case AnchorMiddle:
		x -= fc.width(it.Text) / 2
	case AnchorEnd:
		x -= fc.width(it.Text)
	}
	baseline := int(math.Round(it.Y))
	pen := fixed.Int26_6(math.Round(x * 64))
	prev := rune(-1)
	for _, r := range it.Text {
		if prev >= 0 {
			pen += fc.face.Kern(prev, r)
		}
		px := pen.Floor()
		sub := int(pen-fixed.I(px)) * subpixels / 64
		g := fc.glyph(r, sub)
		if g.mask != nil {
			blendMask(img, g.mask, g.rect.Add(image.Pt(px, baseline)), it.Fill)
		}
		pen += g.advance
		prev = r
	}
}

// blendMask blends c through mask placed at dst (clipped to img).
func blendMask(img *image.RGBA, mask *image.Alpha, dst image.Rectangle, c Color) {
	clip := dst.Intersect(img.Rect)
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		mrow := mask.Pix[(y-dst.Min.Y)*mask.Stride:]
		prow := img.Pix[y*img.Stride:]
		for x := clip.Min.X; x < clip.Max.X; x++ {
			if m := mrow[x-dst.Min.X]; m != 0 {
				blend(prow[4*x:4*x+4], c, float64(m)/255)
			}
		}
	}
}
