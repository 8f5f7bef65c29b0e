package scene

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/units"
)

// Golden PNGs are compared pixel by pixel with a tolerance, so that a
// change in the font rasterizer's rounding does not fail the test while a
// moved box or a changed colour does: at most pngMaxBad pixels may differ
// by more than pngChannelTol in any channel.
const (
	pngChannelTol = 24
	pngMaxBad     = 0.002 // fraction of the pixels
)

var goldenPNGs = []struct {
	file string
	at   units.Time
	opt  Options
}{
	{"ring4_reduce_scatter.png", 6*ms + 250*units.Microsecond, Options{Width: 480, Height: 300}},
	{"ring4_present_dark.png", 8*ms + 875*units.Microsecond, Options{Width: 640, Height: 400, Present: true, Theme: ThemeDark}},
}

func TestGoldenPNG(t *testing.T) {
	tl := ringTimeline(4)
	r, err := NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldenPNGs {
		img, err := r.Draw(Build(tl, g.at, g.opt))
		if err != nil {
			t.Fatalf("%s: %v", g.file, err)
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		golden.CheckWith(t, filepath.Join("testdata", g.file), buf.Bytes(), similarPNG)
	}
}

// similarPNG decodes two PNGs and reports whether they match within the
// tolerance: the same size, and at most pngMaxBad of the pixels differing
// by more than pngChannelTol.
func similarPNG(got, want []byte) error {
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return err
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("golden file: %v", err)
	}
	if a.Bounds() != b.Bounds() {
		return fmt.Errorf("size %v, golden %v", a.Bounds(), b.Bounds())
	}
	bad, worst := comparePixels(a, b)
	total := a.Bounds().Dx() * a.Bounds().Dy()
	if float64(bad) > pngMaxBad*float64(total) {
		return fmt.Errorf("%d of %d pixels differ by more than %d (worst %d)", bad, total, pngChannelTol, worst)
	}
	return nil
}

// comparePixels counts the pixels whose largest channel difference exceeds
// pngChannelTol, and returns the largest difference seen.
func comparePixels(a, b image.Image) (bad, worst int) {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			d := channelDiff(a.At(x, y), b.At(x, y))
			worst = max(worst, d)
			if d > pngChannelTol {
				bad++
			}
		}
	}
	return bad, worst
}

func channelDiff(a, b color.Color) int {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) int { return max(int(x>>8)-int(y>>8), int(y>>8)-int(x>>8)) }
	return max(d(ar, br), d(ag, bg), d(ab, bb))
}

// TestRasterCoverage checks anti-aliasing against the exact covered area:
// a black box from x=0.5 to x=2.25 over white leaves pixel 0 half covered,
// pixel 1 full and pixel 2 a quarter covered.
func TestRasterCoverage(t *testing.T) {
	r, err := NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	black := Color{0, 0, 0, 255}
	img, err := r.Draw(DrawList{Width: 4, Height: 1, Background: colWhite, Items: []Item{
		{Shape: Rect, X: 0.5, Y: 0, W: 1.75, H: 1, Fill: black},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for x, want := range []uint8{128, 0, 191, 255} { // 255·(1−covered), rounded
		if got := img.RGBAAt(x, 0).R; int(got)-int(want) > 1 || int(want)-int(got) > 1 {
			t.Errorf("pixel %d: %d, want %d", x, got, want)
		}
	}
}

// TestRasterLineArea checks that a thick horizontal line darkens as much
// area as its capsule covers: length·width + π·(width/2)² for the two caps.
func TestRasterLineArea(t *testing.T) {
	r, err := NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	img, err := r.Draw(DrawList{Width: 40, Height: 20, Background: colWhite, Items: []Item{
		{Shape: Line, X: 10, Y: 10, X2: 30, Y2: 10, Stroke: Color{0, 0, 0, 255}, StrokeWidth: 4},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var area float64
	for i := 0; i < len(img.Pix); i += 4 {
		area += float64(255-img.Pix[i]) / 255
	}
	want := 20*4 + 3.14159*2*2 // the caps are 8-gons, a little short of circles
	if area < want*0.97 || area > want*1.01 {
		t.Errorf("line covers %.2f px², want %.2f", area, want)
	}
}

func TestRasterRejectsBadCanvas(t *testing.T) {
	r, err := NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	for _, dl := range []DrawList{{Width: 0, Height: 10}, {Width: 10, Height: MaxSize + 1}} {
		if _, err := r.Draw(dl); err == nil {
			t.Errorf("Draw(%v×%v) = nil error", dl.Width, dl.Height)
		}
	}
}

// TestTextAnchors checks that the three anchors put the same word's ink
// where they say: centred on x, or ending at x.
func TestTextAnchors(t *testing.T) {
	r, err := NewRaster()
	if err != nil {
		t.Fatal(err)
	}
	inkSpan := func(a Anchor) (int, int) {
		img, err := r.Draw(DrawList{Width: 200, Height: 30, Background: colWhite, Items: []Item{
			{Shape: Text, X: 100, Y: 20, Text: "HHHH", Size: 16, Fill: Color{0, 0, 0, 255}, Anchor: a},
		}})
		if err != nil {
			t.Fatal(err)
		}
		x0, x1 := 200, -1
		for y := range 30 {
			for x := range 200 {
				if img.RGBAAt(x, y).R < 128 {
					x0, x1 = min(x0, x), max(x1, x)
				}
			}
		}
		return x0, x1
	}
	s0, s1 := inkSpan(AnchorStart)
	m0, m1 := inkSpan(AnchorMiddle)
	e0, e1 := inkSpan(AnchorEnd)
	if s0 < 100 || s0 > 103 {
		t.Errorf("start anchor: ink starts at %d, want about 100", s0)
	}
	if c := (m0 + m1) / 2; c < 98 || c > 102 {
		t.Errorf("middle anchor: ink centred at %d, want about 100", c)
	}
	if e1 < 96 || e1 > 100 {
		t.Errorf("end anchor: ink ends at %d, want about 100", e1)
	}
	if w := s1 - s0; w < 40 || w != e1-e0 || w != m1-m0 {
		t.Errorf("ink widths %d, %d, %d; want the same word width (> 40 px)", s1-s0, m1-m0, e1-e0)
	}
}
