//go:build !js

package textfont

import (
	"bytes"
	"image"
	"image/draw"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// drawn lists characters ParaPlay's canvases draw besides ASCII: units,
// operators and Greek letters in labels, captions and the inspector.
const drawn = "µ·×÷−–—…→←↔≤≥≈∞√±²³½αβγηθλμπστΔΣΦΨ•′ü"

// TestSubsetDrawsLikeGoRegular renders every character the subset keeps
// with both fonts and compares masks and advances: the subset must change
// nothing it keeps.
func TestSubsetDrawsLikeGoRegular(t *testing.T) {
	sub, full := face(t, GoRegular), face(t, goregular.TTF)
	kept := 0
	for r := rune(0x20); r < 0x2600; r++ {
		_, _, _, _, inFull := full.Glyph(fixed.P(0, 0), r)
		if !inFull {
			continue
		}
		gotRect, gotMask, gotAdv, ok := glyph(sub, r)
		if !ok {
			continue
		}
		kept++
		wantRect, wantMask, wantAdv, _ := glyph(full, r)
		if gotRect != wantRect || gotAdv != wantAdv || !bytes.Equal(gotMask, wantMask) {
			t.Errorf("%U %q: subset glyph differs from Go Regular's (rect %v vs %v, advance %v vs %v)", r, r, gotRect, wantRect, gotAdv, wantAdv)
		}
	}
	if kept < 500 {
		t.Errorf("subset keeps %d glyphs, want at least 500", kept)
	}
	for r := rune(0x20); r < 0x7f; r++ {
		if _, _, _, ok := glyph(sub, r); !ok {
			t.Errorf("ASCII %q missing from the subset", r)
		}
	}
	for _, r := range drawn {
		if _, _, _, ok := glyph(sub, r); !ok {
			t.Errorf("%U %q is drawn by ParaPlay but missing from the subset", r, r)
		}
	}
}

func face(t *testing.T, ttf []byte) font.Face {
	t.Helper()
	f, err := opentype.Parse(ttf)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 13, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

// glyph renders r at a fixed dot and returns its rectangle, its mask as
// bytes and its advance.
func glyph(f font.Face, r rune) (image.Rectangle, []byte, fixed.Int26_6, bool) {
	dr, mask, mp, adv, ok := f.Glyph(fixed.P(10, 20), r)
	if !ok {
		return image.Rectangle{}, nil, 0, false
	}
	a := image.NewAlpha(dr)
	draw.DrawMask(a, dr, image.White, image.Point{}, mask, mp, draw.Src)
	return dr, a.Pix, adv, true
}
