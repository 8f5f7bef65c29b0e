//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/sim/scene"
)

// sceneOptions are the options a frame of ss is built with at w×h: the
// session's presenter mode, and its theme — the URL's theme= if given, dark
// in presenter mode, else the page's (its toggle, else the system's
// prefers-color-scheme), so the canvas matches the page around it.
func (g *game) sceneOptions(ss *session, w, h float64) scene.Options {
	opt := scene.Options{Width: w, Height: h}
	if ss == nil {
		return opt
	}
	opt.Present = ss.view.Present
	if ss.view.Embed {
		// An article's demo leaves out the labels a reader could not read,
		// as its poster does (site/demo.go's posterMinText).
		opt.MinText = min(embedMinText*deviceScale(), scene.MaxMinText)
		if compactCanvas(w) {
			// In a phone's column the frame is the compact poster's
			// (site/demo.go: compactMinText, 12 px at 340).
			opt.Compact = true
			opt.MinText = min(max(opt.MinText, compactText*w/scene.CompactWidth), scene.MaxMinText)
		}
	}
	switch {
	case ss.view.Theme == "dark":
		opt.Theme = scene.ThemeDark
	case ss.view.Theme == "light":
	case ss.view.Present || g.theme.dark():
		opt.Theme = scene.ThemeDark
	}
	return opt
}

// smallestText is the size of dl's smallest text item, 0 when it has none:
// the browser tests read it to check an embedded demo's first frame.
func smallestText(dl *scene.DrawList) float64 {
	m := 0.0
	for i := range dl.Items {
		if it := &dl.Items[i]; it.Shape == scene.Text && (m == 0 || it.Size < m) {
			m = it.Size
		}
	}
	return m
}

// embedMinText is the smallest label an embedded demo draws, in CSS px.
const embedMinText = 11

// An embedded demo narrower than compactBelowCSS CSS px is laid out compact
// (scene.Options.Compact), its smallest text compactText px per
// scene.CompactWidth of width: the page shows the compact poster below a
// 640-px viewport (site/demo.go: compactBelow), whose article figure is
// the viewport less 40 px.
const (
	compactBelowCSS = 600
	compactText     = 12
)

// compactCanvas reports whether a canvas w device pixels wide is laid out
// compact.
func compactCanvas(w float64) bool { return w < compactBelowCSS*deviceScale() }

// deviceScale is the screen's device pixels per CSS pixel (at least 1),
// which the canvas is drawn in (game.LayoutF).
func deviceScale() float64 {
	if m := ebiten.Monitor(); m != nil {
		return max(m.DeviceScaleFactor(), 1)
	}
	return 1
}

// pageTheme reads the page's colour scheme, at most twice a second: the
// reader may flip the site's toggle or the system's setting while a demo
// plays, and asking the DOM every frame would cost for nothing.
type pageTheme struct {
	asked  int // frames since the last look
	isDark bool
	looked bool
}

const themePollFrames = 30

func (p *pageTheme) dark() bool {
	if p.looked && p.asked < themePollFrames {
		p.asked++
		return p.isDark
	}
	p.asked, p.looked = 0, true
	p.isDark = pageIsDark()
	return p.isDark
}

// pageIsDark mirrors site/assets/theme.js: an explicit data-theme on the
// root element wins, else prefers-color-scheme.
func pageIsDark() bool {
	doc := js.Global().Get("document")
	if doc.Truthy() {
		if t := doc.Get("documentElement").Get("dataset").Get("theme"); t.Type() == js.TypeString && t.String() != "" {
			return t.String() == "dark"
		}
	}
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool()
}
