//go:build js && wasm

// Command minimal is the smallest Ebitengine app built the way the ParaPlay
// app is (same flags, same loader): it fills the screen and counts frames in
// window.paraplay.frames. ./build.sh bench builds it to compare the time to
// first frame and the binary size of play.html against Ebitengine's own
// floor. It is not part of the site.
package main

import (
	"image/color"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/wasm/webgl"
)

type game struct {
	obj    js.Value
	frames int
}

func (g *game) Update() error { return nil }

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0x20, 0x60, 0xc0, 0xff})
	g.frames++
	g.obj.Set("frames", g.frames)
}

// Layout is required by ebiten.Game; LayoutF is the one used.
func (g *game) Layout(w, h int) (int, int) { return w, h }

// LayoutF draws at device resolution, as the app does.
func (g *game) LayoutF(w, h float64) (float64, float64) {
	s := 1.0
	if m := ebiten.Monitor(); m != nil {
		s = max(m.DeviceScaleFactor(), 1)
	}
	return max(w*s, 1), max(h*s, 1)
}

func main() {
	obj := js.Global().Get("Object").New()
	obj.Set("frames", 0)
	js.Global().Set("paraplay", obj)
	// Built the way the app is: the same canvas context and no
	// per-frame clear (the fill covers every pixel), so that this page
	// stays the floor the app is compared with.
	ebiten.SetScreenClearedEveryFrame(false)
	webgl.Tune()
	if err := ebiten.RunGame(&game{obj: obj}); err != nil {
		js.Global().Get("console").Call("error", err.Error())
	}
}
