//go:build js && wasm

package main

import (
	"bytes"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"paraplay/sim/scene"
)

// fonts turns scene text items into Ebitengine text draws, caching one face
// per (size, weight): the draw list asks for few distinct sizes.
type fonts struct {
	regular, bold *text.GoTextFaceSource
	faces         map[faceKey]*text.GoTextFace
}

type faceKey struct {
	size float64
	bold bool
}

// newFonts parses the embedded Go fonts. They ship inside the binary, so
// the page makes no font request.
func newFonts() (*fonts, error) {
	reg, err := text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF))
	if err != nil {
		return nil, err
	}
	bold, err := text.NewGoTextFaceSource(bytes.NewReader(gobold.TTF))
	if err != nil {
		return nil, err
	}
	return &fonts{regular: reg, bold: bold, faces: map[faceKey]*text.GoTextFace{}}, nil
}

func (f *fonts) face(size float64, bold bool) *text.GoTextFace {
	if size <= 0 {
		size = 12
	}
	k := faceKey{size, bold}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	src := f.regular
	if bold {
		src = f.bold
	}
	fc := &text.GoTextFace{Source: src, Size: size}
	f.faces[k] = fc
	return fc
}

// drawItems writes every Text item of items, in order.
func (f *fonts) drawItems(dst *ebiten.Image, items []scene.Item) {
	for i := range items {
		if it := &items[i]; it.Shape == scene.Text && it.Text != "" && it.Fill.A > 0 {
			f.draw(dst, it.Text, it.X, it.Y, it.Size, it.Bold, it.Anchor, it.Fill)
		}
	}
}

// draw writes s with its baseline at y, aligned about x by anchor.
func (f *fonts) draw(dst *ebiten.Image, s string, x, y, size float64, bold bool, a scene.Anchor, c scene.Color) {
	fc := f.face(size, bold)
	var op text.DrawOptions
	// text/v2 places the top of the line box at the origin; the draw list
	// gives the baseline.
	op.GeoM.Translate(x, y-fc.Metrics().HAscent)
	op.ColorScale.ScaleWithColor(color.NRGBA{c.R, c.G, c.B, c.A})
	switch a {
	case scene.AnchorMiddle:
		op.PrimaryAlign = text.AlignCenter
	case scene.AnchorEnd:
		op.PrimaryAlign = text.AlignEnd
	}
	text.Draw(dst, s, fc, &op)
}

// width is the advance of s at the given size.
func (f *fonts) width(s string, size float64, bold bool) float64 {
	return text.Advance(s, f.face(size, bold))
}
