//go:build js && wasm

package main

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/sim/scene"
)

// maxBatchVertices keeps indices within uint16; a longer batch is split.
const maxBatchVertices = 1<<16 - 4

// batch collects coloured quads and glyphs and draws them with one
// DrawTriangles call per 65k vertices. Shapes sample the glyph atlas's white
// texel, so the vertex colour is the colour drawn; glyphs sample their
// coverage, tinted by the vertex colour.
type batch struct {
	src  *ebiten.Image // the glyph atlas (see text.go)
	vs   []ebiten.Vertex
	is   []uint16
	opts ebiten.DrawTrianglesOptions
}

func newBatch(atlas *ebiten.Image) *batch {
	return &batch{src: atlas, opts: ebiten.DrawTrianglesOptions{AntiAlias: false}}
}

// addItems appends the rectangles, lines and labels of items in order, so
// the canvas stacks them as the SVG encoder does.
func (b *batch) addItems(dst *ebiten.Image, f *fonts, items []scene.Item) {
	for i := range items {
		it := &items[i]
		switch it.Shape {
		case scene.Rect:
			b.rect(dst, it)
		case scene.Line:
			b.line(dst, it.X, it.Y, it.X2, it.Y2, strokeWidth(it), it.Stroke)
		case scene.Text:
			b.text(dst, f, it.Text, it.X, it.Y, it.Size, it.Bold, it.Anchor, it.Fill)
		}
	}
}

func strokeWidth(it *scene.Item) float64 {
	if it.StrokeWidth > 0 {
		return it.StrokeWidth
	}
	return 1
}

// rect fills the box and strokes its outline centred on the edge (as SVG
// does), with the four edges not overlapping so translucent strokes stay even.
//
// An opaque box with an opaque outline — most of a cluster view's boxes —
// is drawn as two quads instead of five: the outline's outer box, then the
// fill inside the outline. The pixels are the same (every pixel ends up the
// colour of the last quad covering it, and those are the same quads'
// areas), and software WebGL pays per triangle: on 512 GPUs this is about a
// third of the frame's quads.
func (b *batch) rect(dst *ebiten.Image, it *scene.Item) {
	x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
	if it.Fill.A == 255 && it.Stroke.A == 255 {
		h := strokeWidth(it) / 2
		b.box(dst, x0-h, y0-h, x1+h, y1+h, it.Stroke)
		b.box(dst, x0+h, y0+h, x1-h, y1-h, it.Fill)
		return
	}
	if it.Fill.A > 0 {
		b.box(dst, x0, y0, x1, y1, it.Fill)
	}
	if it.Stroke.A == 0 {
		return
	}
	h := strokeWidth(it) / 2
	b.box(dst, x0-h, y0-h, x1+h, y0+h, it.Stroke) // top
	b.box(dst, x0-h, y1-h, x1+h, y1+h, it.Stroke) // bottom
	b.box(dst, x0-h, y0+h, x0+h, y1-h, it.Stroke) // left
	b.box(dst, x1-h, y0+h, x1+h, y1-h, it.Stroke) // right
}

// box adds an axis-aligned filled rectangle.
func (b *batch) box(dst *ebiten.Image, x0, y0, x1, y1 float64, c scene.Color) {
	if x1 <= x0 || y1 <= y0 {
		return
	}
	b.quad(dst, [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, c)
}

// line adds a segment as a quad of the given width.
func (b *batch) line(dst *ebiten.Image, x0, y0, x1, y1, w float64, c scene.Color) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 || c.A == 0 {
		return
	}
	nx, ny := -dy/n*w/2, dx/n*w/2
	b.quad(dst, [4][2]float64{{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}}, c)
}

// triangle adds one filled triangle (used for the play icon).
func (b *batch) triangle(dst *ebiten.Image, p [3][2]float64, c scene.Color) {
	b.reserve(dst, 3)
	base := uint16(len(b.vs))
	for _, q := range p {
		b.vs = append(b.vs, b.vertex(q[0], q[1], c))
	}
	b.is = append(b.is, base, base+1, base+2)
}

func (b *batch) quad(dst *ebiten.Image, p [4][2]float64, c scene.Color) {
	b.reserve(dst, 4)
	base := uint16(len(b.vs))
	for _, q := range p {
		b.vs = append(b.vs, b.vertex(q[0], q[1], c))
	}
	b.is = append(b.is, base, base+1, base+2, base, base+2, base+3)
}

func (b *batch) vertex(x, y float64, c scene.Color) ebiten.Vertex {
	return b.textured(x, y, whiteTexel, whiteTexel, c)
}

func (b *batch) textured(x, y, sx, sy float64, c scene.Color) ebiten.Vertex {
	return ebiten.Vertex{
		DstX: float32(x), DstY: float32(y),
		SrcX: float32(sx), SrcY: float32(sy),
		ColorR: float32(c.R) / 255, ColorG: float32(c.G) / 255,
		ColorB: float32(c.B) / 255, ColorA: float32(c.A) / 255,
	}
}

// sprite adds the atlas cell src at (x, y), one texel per pixel.
func (b *batch) sprite(dst *ebiten.Image, x, y float64, src image.Rectangle, c scene.Color) {
	b.reserve(dst, 4)
	base := uint16(len(b.vs))
	w, h := float64(src.Dx()), float64(src.Dy())
	sx, sy := float64(src.Min.X), float64(src.Min.Y)
	b.vs = append(b.vs,
		b.textured(x, y, sx, sy, c),
		b.textured(x+w, y, sx+w, sy, c),
		b.textured(x+w, y+h, sx+w, sy+h, c),
		b.textured(x, y+h, sx, sy+h, c))
	b.is = append(b.is, base, base+1, base+2, base, base+2, base+3)
}

// reserve flushes first if n more vertices would overflow uint16 indices.
func (b *batch) reserve(dst *ebiten.Image, n int) {
	if len(b.vs)+n > maxBatchVertices {
		b.flush(dst)
	}
}

// flush draws everything collected so far in one call and empties the batch.
func (b *batch) flush(dst *ebiten.Image) {
	if len(b.is) > 0 {
		dst.DrawTriangles(b.vs, b.is, b.src, &b.opts)
	}
	b.vs, b.is = b.vs[:0], b.is[:0]
}
