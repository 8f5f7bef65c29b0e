//go:build js && wasm

package main

import (
	"errors"
	"net/url"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// game is the ebiten.Game: Update moves the clock and rebuilds the draw
// list when the instant changed; Draw only replays it.
type game struct {
	bridge *bridge
	fonts  *fonts
	batch  *batch

	tl   *timeline.Timeline
	play *playback

	dl      scene.DrawList
	builtAt units.Time
	built   bool

	errTitle string
	errLines []string
	errText  string

	frames int
}

// newGame decodes the URL, runs the simulation once and prepares the
// viewer. Any failure leaves the game in the error state, which draws it.
func newGame(q url.Values, qerr error) *game {
	g := &game{bridge: newBridge(), batch: newBatch()}
	f, err := newFonts()
	if err != nil {
		g.fail("The demo cannot draw text", err)
		return g
	}
	g.fonts = f
	if qerr != nil {
		g.fail("This demo's address is malformed", &scenario.FieldError{Field: "URL", Msg: qerr.Error()})
		return g
	}
	s, serr := scenario.FromQuery(q)
	v, verr := parseView(q)
	if err := errors.Join(serr, verr); err != nil {
		g.fail("This demo's parameters are not valid", err)
		return g
	}
	tl, err := simulate(s)
	if err != nil {
		g.fail("The simulation failed", err)
		return g
	}
	g.tl, g.play = tl, newPlayback(tl, v)
	return g
}

// fail switches to the error state; it is permanent for this page.
func (g *game) fail(title string, err error) {
	g.errTitle = title
	g.errLines = errorLines(err)
	g.errText = strings.Join(g.errLines, "\n")
	g.bridge.fail(g.errText)
}

// Update handles the keys, advances the clock and rebuilds the draw list.
func (g *game) Update() error {
	if g.errText != "" {
		return nil
	}
	g.handleKeys()
	g.play.tick(float64(ebiten.TPS()))
	return g.rebuild()
}

func (g *game) handleKeys() {
	p := g.play
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeySpace):
		p.toggle()
	case repeating(ebiten.KeyArrowRight), repeating(ebiten.KeyPageDown):
		p.next()
	case repeating(ebiten.KeyArrowLeft), repeating(ebiten.KeyPageUp):
		p.prev()
	case inpututil.IsKeyJustPressed(ebiten.KeyEqual), inpututil.IsKeyJustPressed(ebiten.KeyNumpadAdd):
		p.faster()
	case inpututil.IsKeyJustPressed(ebiten.KeyMinus), inpututil.IsKeyJustPressed(ebiten.KeyNumpadSubtract):
		p.slower()
	case inpututil.IsKeyJustPressed(ebiten.KeyHome):
		p.restart()
	case inpututil.IsKeyJustPressed(ebiten.KeyF):
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
}

// repeating reports a key press, then auto-repeats while the key is held.
func repeating(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return d == 1 || (d >= 24 && (d-24)%4 == 0)
}

// rebuild asks the scene for the current instant when it changed.
func (g *game) rebuild() error {
	if g.built && g.builtAt == g.play.t {
		return nil
	}
	dl, err := buildScene(g.tl, g.play.t)
	if err != nil {
		g.fail("The demo could not be drawn", err)
		return nil
	}
	g.dl, g.builtAt, g.built = dl, g.play.t, true
	return nil
}

// Draw replays the draw list: background, all shapes in one batch, then
// text on top, then the status line. It counts frames for the bridge.
func (g *game) Draw(screen *ebiten.Image) {
	g.frames++
	switch {
	case g.errText != "":
		g.drawError(screen)
	case g.built:
		g.drawList(screen)
		g.drawStatus(screen)
	default:
		// Before the first Update: never a transparent canvas.
		g.batch.box(screen, 0, 0, logicalWidth, logicalHeight, errorBG)
		g.batch.flush(screen)
	}
	g.bridge.publish(g.frames, g.play, g.errText)
}

func (g *game) drawList(screen *ebiten.Image) {
	bg := g.dl.Background
	bg.A = 255
	g.batch.box(screen, 0, 0, logicalWidth, logicalHeight, bg)
	g.batch.addItems(screen, g.dl.Items)
	g.batch.flush(screen)
	g.fonts.drawItems(screen, g.dl.Items)
}

// Layout fixes the logical size; Ebitengine scales it to the canvas.
func (g *game) Layout(int, int) (int, int) { return logicalWidth, logicalHeight }
