package scene

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// The 4-GPU ring ends at 9 ms, which plays in 6 s at BaseRate (inside
// MinRunSeconds..MaxRunSeconds), so at 10 fps a frame is 0.15 ms of
// simulated time: 60 steps, 61 frames, the last at 9 ms.
func TestAnimationFrames(t *testing.T) {
	a := Animation{FPS: 10, Speed: 1}
	end := ringTimeline(4).End
	if got := PlaybackRate(end); got != 1.5e6 {
		t.Fatalf("PlaybackRate(9ms) = %v ns/s, want 1.5e6", got)
	}
	if got := a.FrameCount(end); got != 61 {
		t.Errorf("FrameCount = %d, want 61", got)
	}
	for k, want := range map[int]units.Time{0: 0, 1: 150 * units.Microsecond, 59: 8850 * units.Microsecond, 60: 9 * ms} {
		if got := a.FrameTime(k, end); got != want {
			t.Errorf("FrameTime(%d) = %v, want %v", k, got, want)
		}
	}
	a.Speed, a.From, a.To = 2, 3*ms, 6*ms // 3 ms at 3 ms/s: 1 s, 10 frames + the last
	if got := a.FrameCount(end); got != 11 {
		t.Errorf("speed 2, 3–6 ms: FrameCount = %d, want 11", got)
	}
}

// TestAnimationDelays checks that the hundredths of a second add up to the
// animation's length: 15 fps over 150 frames is 10 s.
func TestAnimationDelays(t *testing.T) {
	a := Animation{FPS: 15, Speed: 1}
	end := 80 * ms // 8 s at ×1 (rescaled: 80 ms at BaseRate is 53 s)
	n := a.FrameCount(end)
	if n != 121 {
		t.Fatalf("FrameCount = %d, want 121 (8 s at 15 fps, plus the last)", n)
	}
	sum := 0
	for k := range n - 1 {
		sum += a.Delay(k, end)
	}
	if sum != 800 {
		t.Errorf("delays add up to %d cs, want 800", sum)
	}
	if got := a.Delay(n-1, end); got != 100 {
		t.Errorf("last frame holds %d cs, want 100", got)
	}
}

func TestAnimationValidate(t *testing.T) {
	end := 9 * ms
	tests := []struct {
		a    Animation
		want string
	}{
		{Animation{FPS: 0, Speed: 1}, "fps is 0; want 1..50"},
		{Animation{FPS: 10, Speed: 0}, "speed is 0; want a multiplier 0.01..1000"},
		{Animation{FPS: 10, Speed: 1, From: 10 * ms}, "from is 10ms; want 0..9ms"},
		{Animation{FPS: 10, Speed: 1, To: 12 * ms}, "to is 12ms; want 0..9ms"},
		{Animation{FPS: 10, Speed: 1, From: 5 * ms, To: 4 * ms}, "from 5ms is not before to 4ms"},
		{Animation{FPS: 50, Speed: 0.01}, "frames; want at most 3000"},
		{Animation{FPS: 10, Speed: 1, Options: Options{Width: 10}}, "width is 10; want at least 64"},
		{Animation{FPS: 10, Speed: 1, Options: Options{View: "nodes"}}, `view "nodes"`},
	}
	for _, tc := range tests {
		err := tc.a.Validate(end)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want it to contain %q", tc.a, err, tc.want)
		}
	}
	if err := (Animation{FPS: 15, Speed: 1}).Validate(end); err != nil {
		t.Errorf("a good animation: %v", err)
	}
}

func ringGIF(t *testing.T, opt Options) ([]byte, *gif.GIF) {
	t.Helper()
	var buf bytes.Buffer
	a := Animation{Options: opt, FPS: 10, Speed: 1}
	if err := WriteGIF(&buf, NewFrames(ringTimeline(4)), a, nil); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), g
}

// TestGIF checks the frame count, the palette and the pixels: every frame,
// composited as a viewer does, is the raster of its instant mapped onto the
// palette.
func TestGIF(t *testing.T) {
	opt := Options{Width: 240, Height: 150}
	data, g := ringGIF(t, opt)
	if len(g.Image) != 61 || g.Config.Width != 240 || g.Config.Height != 150 {
		t.Fatalf("%d frames of %d×%d, want 61 of 240×150", len(g.Image), g.Config.Width, g.Config.Height)
	}
	pal := Palette(colBackground)
	// image/gif pads a palette to a power of two.
	if len(pal) > 256 || len(g.Image[0].Palette) < len(pal) {
		t.Fatalf("palette has %d colours, the GIF's %d; want at least as many, at most 256", len(pal), len(g.Image[0].Palette))
	}
	for i := range pal {
		if channelDiff(g.Image[0].Palette[i], pal[i]) != 0 {
			t.Fatalf("palette entry %d is %v, want %v", i, g.Image[0].Palette[i], pal[i])
		}
	}
	for _, c := range sceneColors() {
		if !paletteHas(pal, c) {
			t.Errorf("palette lacks scene colour %v", c)
		}
	}
	r, _ := NewRaster()
	lut := newPaletteIndex(pal)
	canvas := image.NewRGBA(image.Rect(0, 0, 240, 150))
	a := Animation{Options: opt, FPS: 10, Speed: 1}
	end := ringTimeline(4).End
	frames := NewFrames(ringTimeline(4))
	for k, fr := range g.Image {
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		if k%15 != 0 && k != len(g.Image)-1 {
			continue
		}
		want, _ := r.Draw(frames.Build(a.FrameTime(k, end), opt))
		for i := 0; i < len(want.Pix); i += 4 {
			wi := pal[lut.index(want.Pix[i], want.Pix[i+1], want.Pix[i+2])]
			gr, gg, gb, _ := canvas.At((i/4)%240, (i/4)/240).RGBA()
			wr, wg, wb, _ := wi.RGBA()
			if gr != wr || gg != wg || gb != wb {
				t.Fatalf("frame %d pixel %d: %v, want %v", k, i/4, canvas.At((i/4)%240, (i/4)/240), wi)
			}
		}
	}
	again, _ := ringGIF(t, opt)
	if !bytes.Equal(data, again) {
		t.Error("two encodes of the same animation differ")
	}
}

func paletteHas(pal color.Palette, c Color) bool {
	for _, p := range pal {
		r, g, b, _ := p.RGBA()
		if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(b>>8) == c.B {
			return true
		}
	}
	return false
}

// TestGIFEncoderStepwise checks that encoding frame by frame, as the
// browser does, gives the bytes WriteGIF gives.
func TestGIFEncoderStepwise(t *testing.T) {
	opt := Options{Width: 200, Height: 125}
	want, _ := ringGIF(t, opt)
	e, err := NewGIFEncoder(NewFrames(ringTimeline(4)), Animation{Options: opt, FPS: 10, Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.WriteTo(&bytes.Buffer{}); err == nil {
		t.Error("WriteTo before the last frame: nil error")
	}
	for {
		more, err := e.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
	}
	var buf bytes.Buffer
	if _, err := e.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Error("stepwise GIF differs from WriteGIF's")
	}
}
