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
	if err := ebiten.RunGame(g); err != nil {
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
