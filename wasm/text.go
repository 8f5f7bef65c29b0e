//go:build js && wasm

package main

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"paraplay/sim/scene"
)

// Text is drawn from a glyph atlas the app fills itself: each glyph is
// rasterised once per (size, weight) with x/image's opentype rasteriser
// into one texture that also holds the white pixel the shapes sample, so a
// whole frame — shapes and labels, in draw-list order — is one
// DrawTriangles call. Ebitengine's text/v2 would shape text with a Go port
// of HarfBuzz: correct for scripts we never show, about 0.9 MB of gzipped
// wasm, and one draw call per label (the 64-GPU view has hundreds).

// atlasSize is the glyph texture's side. Labels use a handful of sizes of
// ~100 distinct runes, a few hundred glyphs of at most ~30×30 pixels.
const atlasSize = 1024

// whiteTexel is the texel centre the shapes sample: the atlas's top-left
// 3×3 block is white and its centre pixel is away from any glyph's edge.
const whiteTexel = 1.5

type fonts struct {
	text  *scene.TextFonts
	faces map[font.Face]*faceCache
	atlas *ebiten.Image
	// The shelf packer's state: the next free x on the current shelf, the
	// shelf's top and its height so far.
	shelfX, shelfY, shelfH int
}

// faceCache holds one face and the glyphs it has placed in the atlas.
type faceCache struct {
	face   font.Face
	glyphs map[rune]glyph
}

// glyph is where a rune's mask sits in the atlas and how it sits on the
// baseline: its top-left is (dx, dy) from the pen position.
type glyph struct {
	src     image.Rectangle
	dx, dy  int
	advance fixed.Int26_6
	visible bool
}

// newFonts loads the scene's fonts (the embedded Go fonts, so the page
// makes no font request) and makes the empty atlas.
func newFonts() (*fonts, error) {
	text, err := scene.NewTextFonts()
	if err != nil {
		return nil, err
	}
	f := &fonts{text: text}
	f.atlas = ebiten.NewImageWithOptions(image.Rect(0, 0, atlasSize, atlasSize), &ebiten.NewImageOptions{Unmanaged: true})
	f.reset()
	return f, nil
}

// reset empties the atlas but for the white block. It runs at start and,
// should the atlas ever fill up, forgets every placed glyph to start over.
func (f *fonts) reset() {
	f.atlas.Clear()
	f.atlas.SubImage(image.Rect(0, 0, 3, 3)).(*ebiten.Image).Fill(color.White)
	if f.faces == nil {
		f.faces = map[font.Face]*faceCache{}
	}
	for _, fc := range f.faces {
		clear(fc.glyphs)
	}
	f.shelfX, f.shelfY, f.shelfH = 4, 0, 4
}

// face returns the face for a size (12 when unset; the scene rounds it to
// a quarter pixel, so near-equal sizes share glyphs) and weight, with the
// glyphs it has placed in the atlas.
func (f *fonts) face(size float64, bold bool) *faceCache {
	if size <= 0 {
		size = 12
	}
	face := f.text.Face(size, bold)
	if fc, ok := f.faces[face]; ok {
		return fc
	}
	fc := &faceCache{face: face, glyphs: map[rune]glyph{}}
	f.faces[face] = fc
	return fc
}

// glyph returns r's atlas entry, rasterising and uploading it on first use.
func (f *fonts) glyph(fc *faceCache, r rune) glyph {
	if g, ok := fc.glyphs[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := fc.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		// Outside the font's subset (sim/scene/textfont): a '?' as in exports.
		dr, mask, mp, adv, ok = fc.face.Glyph(fixed.Point26_6{}, '?')
	}
	g := glyph{advance: adv}
	if ok && !dr.Empty() {
		w, h := dr.Dx(), dr.Dy()
		x, y, fits := f.place(w, h)
		if !fits {
			// Full (only with very many sizes): forget every glyph and
			// refill. Labels already batched this frame may show wrong
			// glyphs for one frame; the next frame is right.
			f.reset()
			x, y, _ = f.place(w, h)
		}
		pix := make([]byte, 4*w*h)
		for j := 0; j < h; j++ {
			for i := 0; i < w; i++ {
				// White premultiplied by coverage: the vertex colour tints it.
				_, _, _, a := mask.At(mp.X+i, mp.Y+j).RGBA()
				v := byte(a >> 8)
				o := 4 * (j*w + i)
				pix[o], pix[o+1], pix[o+2], pix[o+3] = v, v, v, v
			}
		}
		g.src = image.Rect(x, y, x+w, y+h)
		f.atlas.SubImage(g.src).(*ebiten.Image).WritePixels(pix)
		g.dx, g.dy, g.visible = dr.Min.X, dr.Min.Y, true
	}
	fc.glyphs[r] = g
	return g
}

// place reserves a w×h cell (plus a one-pixel gutter so that neighbours
// never bleed) on the current shelf, opening a new shelf when it is full.
func (f *fonts) place(w, h int) (x, y int, ok bool) {
	const gutter = 1
	if f.shelfX+w+gutter > atlasSize {
		f.shelfX, f.shelfY, f.shelfH = 0, f.shelfY+f.shelfH+gutter, 0
	}
	if f.shelfY+h > atlasSize || w > atlasSize {
		return 0, 0, false
	}
	x, y = f.shelfX, f.shelfY
	f.shelfX += w + gutter
	f.shelfH = max(f.shelfH, h)
	return x, y, true
}

// width is the advance of s at the given size, kerning included.
func (f *fonts) width(s string, size float64, bold bool) float64 {
	fc := f.face(size, bold)
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += fc.face.Kern(prev, r)
		}
		w += f.glyph(fc, r).advance
		prev = r
	}
	return float64(w) / 64
}

// text adds s to the batch with its baseline at y, aligned about x by
// anchor. Pen positions are rounded to whole pixels so that glyph texels
// map one to one onto the logical canvas.
func (b *batch) text(dst *ebiten.Image, f *fonts, s string, x, y, size float64, bold bool, a scene.Anchor, c scene.Color) {
	if s == "" || c.A == 0 {
		return
	}
	fc := f.face(size, bold)
	switch a {
	case scene.AnchorMiddle:
		x -= f.width(s, size, bold) / 2
	case scene.AnchorEnd:
		x -= f.width(s, size, bold)
	}
	pen := fixed.Int26_6(math.Round(x * 64))
	base := int(math.Round(y))
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			pen += fc.face.Kern(prev, r)
		}
		g := f.glyph(fc, r)
		if g.visible {
			px := float64(pen.Round() + g.dx)
			py := float64(base + g.dy)
			b.sprite(dst, px, py, g.src, c)
		}
		pen += g.advance
		prev = r
	}
}

// whiteAtlas stands in for the glyph atlas when the fonts failed to load:
// its centre texel is white, so shapes still draw.
func whiteAtlas() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img
}
