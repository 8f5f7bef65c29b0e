//go:build js && wasm

package main

import (
	"net/url"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/wasm/webgl"
)

func main() {
	g := newGame(newSession(locationQuery()))
	registerExport(g)
	ebiten.SetWindowSize(defaultWidth, defaultHeight)
	ebiten.SetWindowTitle("ParaPlay")
	// Lecturers drive the demo from another window (slides, a clicker app):
	// keep animating when the iframe does not have focus.
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	// Every Draw path paints the whole canvas first (the scene's
	// background, the error panel, the plan tab), so Ebitengine's own clear
	// of the offscreen screen each frame is a wasted full-canvas pass — about
	// a sixth of a frame's cost in software WebGL.
	ebiten.SetScreenClearedEveryFrame(false)
	webgl.Tune()
	if err := ebiten.RunGame(runnerOf(g)); err != nil {
		g.bridge.obj.Set("state", "error")
		g.bridge.obj.Set("error", err.Error())
		js.Global().Get("console").Call("error", "paraplay: "+err.Error())
	}
}

// locationQuery returns the page's query parameters; a malformed query (a bad
// %-escape) is reported as an error naming the URL rather than ignored.
func locationQuery() (url.Values, error) {
	search := js.Global().Get("location").Get("search").String()
	return url.ParseQuery(strings.TrimPrefix(search, "?"))
}

// runner is the ebiten.Game that RunGame receives. It reaches the game only
// through method values, so *game itself is never converted to an
// interface. That matters for size: Ebitengine's shader compiler uses
// text/template, whose reflective method calls make the linker keep every
// exported method of every type reachable from a type that is converted to
// an interface, and *game reaches nearly every type of the app (sessions,
// timelines, plans, scenes). Handing RunGame *game kept about 120 KB of
// gzipped wasm that nothing calls: summaries' text writers, catalog
// validators, Ebitengine's unused image methods.
type runner struct {
	update  func() error
	draw    func(*ebiten.Image)
	layoutF func(ow, oh float64) (float64, float64)
}

func runnerOf(g *game) *runner {
	return &runner{update: g.Update, draw: g.Draw, layoutF: g.LayoutF}
}

func (r *runner) Update() error             { return r.update() }
func (r *runner) Draw(screen *ebiten.Image) { r.draw(screen) }

// Layout is required by ebiten.Game; Ebitengine calls LayoutF instead.
func (r *runner) Layout(ow, oh int) (int, int) {
	w, h := r.layoutF(float64(ow), float64(oh))
	return int(w), int(h)
}

// LayoutF is the game's (ebiten.LayoutFer).
func (r *runner) LayoutF(ow, oh float64) (float64, float64) { return r.layoutF(ow, oh) }
