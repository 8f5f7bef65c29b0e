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

func (g *game) Layout(int, int) (int, int) { return 960, 600 }

func main() {
	obj := js.Global().Get("Object").New()
	obj.Set("frames", 0)
	js.Global().Set("paraplay", obj)
	if err := ebiten.RunGame(&game{obj: obj}); err != nil {
		js.Global().Get("console").Call("error", err.Error())
	}
}
