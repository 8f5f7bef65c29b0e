//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/sim/scene"
)

// Colours of the viewer's own chrome (the scene chooses its own).
var (
	chromeBG    = scene.Color{R: 24, G: 26, B: 31, A: 215}
	chromeText  = scene.Color{R: 230, G: 232, B: 236, A: 255}
	chromeDim   = scene.Color{R: 160, G: 166, B: 176, A: 255}
	errorBG     = scene.Color{R: 30, G: 32, B: 38, A: 255}
	errorAccent = scene.Color{R: 240, G: 108, B: 96, A: 255}
)

const (
	statusHeight = 22.0
	statusSize   = 13.0
)

// drawStatus draws the status line along the bottom edge: a play or pause
// icon (drawn as shapes: the Go fonts have no ▶ or ❚ glyph), the state, the
// speed and the keys.
func (g *game) drawStatus(dst *ebiten.Image) {
	p := g.play
	y0 := float64(logicalHeight) - statusHeight
	g.batch.box(dst, 0, y0, logicalWidth, logicalHeight, chromeBG)
	ix, iy := 10.0, y0+6
	label := "playing ×" + fmtSpeed(p.speed) + " — Space pause, → step, ← back, +/− speed"
	if p.playing {
		g.batch.triangle(dst, [3][2]float64{{ix, iy}, {ix + 9, iy + 5}, {ix, iy + 10}}, chromeText)
	} else {
		g.batch.box(dst, ix, iy, ix+3, iy+10, chromeText)
		g.batch.box(dst, ix+6, iy, ix+9, iy+10, chromeText)
		label = "paused ×" + fmtSpeed(p.speed) + " — Space play, → step, ← back, Home restart"
	}
	g.batch.flush(dst)
	base := y0 + 15.5
	g.fonts.draw(dst, label, ix+16, base, statusSize, false, scene.AnchorStart, chromeText)
	// The scene prints the instant itself; the right side lists the keys
	// the left side has no room for.
	right := "F fullscreen · Home restart"
	if !p.playing {
		right = "F fullscreen · +/− speed"
	}
	g.fonts.draw(dst, right, logicalWidth-10, base, statusSize, false, scene.AnchorEnd, chromeDim)
}

func fmtSpeed(s float64) string { return strconv.FormatFloat(s, 'g', 3, 64) }

// drawError fills the canvas with the problems, one per line and wrapped,
// so a bad link still explains itself.
func (g *game) drawError(dst *ebiten.Image) {
	g.batch.box(dst, 0, 0, logicalWidth, logicalHeight, errorBG)
	g.batch.box(dst, 40, 48, 46, 80, errorAccent)
	g.batch.flush(dst)
	if g.fonts == nil {
		return // no fonts: the page still shows the error through window.paraplay
	}
	g.fonts.draw(dst, g.errTitle, 60, 72, 24, true, scene.AnchorStart, chromeText)
	y := 120.0
	const size, lead, width = 16.0, 24.0, logicalWidth - 120.0
	for _, line := range g.errLines {
		for i, w := range wrap(line, width, func(s string) float64 { return g.fonts.width(s, size, false) }) {
			x := 60.0
			if i == 0 {
				g.fonts.draw(dst, "•", x, y, size, true, scene.AnchorStart, errorAccent)
			}
			g.fonts.draw(dst, w, x+18, y, size, false, scene.AnchorStart, chromeText)
			if y += lead; y > logicalHeight-40 {
				return
			}
		}
		y += 8
	}
	g.fonts.draw(dst, "Fix the address (URL) of this demo and reload the page.", 60, y+12, 14, false, scene.AnchorStart, chromeDim)
}

// wrap breaks s at spaces into lines no wider than width (a single word
// wider than width gets a line of its own).
func wrap(s string, width float64, measure func(string) float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && measure(try) > width {
			lines = append(lines, cur)
			cur = word
			continue
		}
		cur = try
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
