//go:build js && wasm

package main

import (
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/sim/scene"
)

// Colours of the viewer's own chrome (the scene chooses its own).
var (
	chromeText  = scene.Color{R: 230, G: 232, B: 236, A: 255}
	chromeDim   = scene.Color{R: 160, G: 166, B: 176, A: 255}
	errorBG     = scene.Color{R: 30, G: 32, B: 38, A: 255}
	errorAccent = scene.Color{R: 240, G: 108, B: 96, A: 255}
)

// drawError fills the canvas with the problems, one per line and wrapped,
// so a bad link still explains itself.
func (g *game) drawError(dst *ebiten.Image) {
	// Laid out for a 600-pixel-high canvas and scaled to this one.
	k := max(g.height/defaultHeight, 0.5)
	g.batch.box(dst, 0, 0, g.width, g.height, errorBG)
	g.batch.box(dst, 40*k, 48*k, 46*k, 80*k, errorAccent)
	defer g.batch.flush(dst)
	if g.fonts == nil {
		return // no fonts: the page still shows the error through window.paraplay
	}
	g.batch.text(dst, g.fonts, g.cur.errTitle, 60*k, 72*k, 24*k, true, scene.AnchorStart, chromeText)
	y := 120 * k
	size, lead := 16*k, 24*k
	width := g.width - 120*k
	for _, line := range g.cur.errLines {
		for i, w := range wrap(line, width, func(s string) float64 { return g.fonts.width(s, size, false) }) {
			x := 60 * k
			if i == 0 {
				g.batch.text(dst, g.fonts, "•", x, y, size, true, scene.AnchorStart, errorAccent)
			}
			g.batch.text(dst, g.fonts, w, x+18*k, y, size, false, scene.AnchorStart, chromeText)
			if y += lead; y > g.height-40*k {
				return
			}
		}
		y += 8 * k
	}
	hint := "Fix the parameter named above, or reset to the defaults."
	if g.cur.query == nil { // an imported trace (traceimport.go)
		hint = "Fix or replace the file, or export fewer profiler steps; paraplay import reads it on the command line."
	}
	g.batch.text(dst, g.fonts, hint, 60*k, y+12*k, 14*k, false, scene.AnchorStart, chromeDim)
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
