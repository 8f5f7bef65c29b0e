//go:build js && wasm

package main

import (
	"image"
	"math"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"paraplay/sim/scene"
	"paraplay/sim/units"
	"paraplay/wasm/playground"
)

// The canvas is drawn at the device's own resolution (CSS pixels × the
// device scale factor), so lines and labels stay crisp on high-DPI screens
// and Ebitengine's last pass copies rather than scales. The scene adapts
// its layout to whatever size it is given; these bounds keep a tiny iframe
// legible and a 5K screen affordable (beyond them Ebitengine scales).
const (
	defaultWidth, defaultHeight = 960, 600
	minHeight, maxHeight        = 300, 1600
	maxWidth                    = 2800
)

// game is the ebiten.Game. Update applies what the page asked for, moves
// the clock and rebuilds the draw list when the instant changed; Draw only
// replays it.
type game struct {
	bridge *bridge
	fonts  *fonts
	batch  *batch
	plan   *planTab // the plan tab (plantab.go)

	// mu guards what the JS bridge hands over: pending (a new session to
	// show), shown (the session the bridge answers about) and cmds. It is
	// held only for a few assignments, never across a call into JS.
	mu      sync.Mutex
	pending *session
	shown   *session
	cmds    []func(*playground.Clock)

	// Owned by the game goroutine.
	cur     *session
	clock   *playground.Clock
	width   float64 // the canvas in device pixels
	height  float64
	dl      scene.DrawList
	builtAt units.Time
	// builtOpt are the options dl was built with (theme, presenter mode).
	builtOpt scene.Options
	// minText is dl's smallest text in device pixels (the bridge's
	// minText), 0 when it has none.
	minText float64
	theme   pageTheme
	built   bool
	fontErr error

	// damage tracks what changed since the last frame drawn from dl: the
	// canvas keeps its pixels (SetScreenClearedEveryFrame(false)), so only
	// those regions are repainted. bounds is per-frame scratch.
	damage scene.Damage
	bounds []scene.Region
	// repainted is the share of the canvas the last frame repainted (for
	// the bridge and the benchmark); fullRedraw, set from the page, turns
	// partial repainting off (tests compare both).
	repainted  float64
	fullRedraw bool

	pointer  pointer
	fps      fpsMeter
	lastTick time.Time
	frames   int
}

// newGame shows the first session.
func newGame(first *session) *game {
	g := &game{width: defaultWidth, height: defaultHeight}
	g.fonts, g.fontErr = newFonts()
	if g.fontErr != nil {
		// Without fonts the atlas is a bare white texel: shapes still draw.
		g.batch = newBatch(whiteAtlas())
	} else {
		g.batch = newBatch(g.fonts.atlas)
	}
	g.bridge = newBridge(g)
	g.plan = newPlanTab(g.bridge)
	g.show(first)
	return g
}

// show hands a session to the game goroutine (from any goroutine).
func (g *game) show(ss *session) {
	g.mu.Lock()
	g.pending, g.shown = ss, ss
	g.mu.Unlock()
}

// current is the session the bridge answers about.
func (g *game) current() *session {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.shown
}

// do queues a change to the clock for the next Update.
func (g *game) do(f func(*playground.Clock)) {
	g.mu.Lock()
	g.cmds = append(g.cmds, f)
	g.mu.Unlock()
}

// take collects what the page asked for since the last tick.
func (g *game) take() (*session, []func(*playground.Clock)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ss, cmds := g.pending, g.cmds
	g.pending, g.cmds = nil, nil
	return ss, cmds
}

// Update applies the page's requests, handles the pointer, advances the
// clock and rebuilds the draw list.
func (g *game) Update() error {
	if g.plan.update(g) {
		return nil // the plan tab is on show; the animation waits
	}
	ss, cmds := g.take()
	if ss != nil {
		g.cur, g.clock, g.built = ss, nil, false
		switch {
		case ss.long != nil:
			g.clock = playground.NewLongClock(*ss.long, ss.view)
		case ss.tl != nil:
			g.clock = playground.NewClock(ss.tl, ss.view)
		}
	}
	if g.clock == nil {
		return nil
	}
	for _, f := range cmds {
		f(g.clock)
	}
	g.clock.Tick(g.elapsed(time.Now()))
	t0 := time.Now()
	g.rebuild()
	g.fps.build += time.Since(t0)
	g.pointer.update(g)
	return nil
}

// elapsed is the real time since the last tick, at most a quarter second
// (a hidden tab or a stall does not jump the animation). Update runs once
// per frame (ebiten.SyncWithFPS), so a slow frame costs one scene build,
// not a catch-up burst of them.
func (g *game) elapsed(now time.Time) float64 {
	dt := 1.0 / 60
	if !g.lastTick.IsZero() {
		dt = min(max(now.Sub(g.lastTick).Seconds(), 0), 0.25)
	}
	g.lastTick = now
	return dt
}

// rebuild asks the scene for the current instant when it changed.
func (g *game) rebuild() {
	opt := g.sceneOptions(g.cur, g.width, g.height)
	if g.built && g.builtAt == g.clock.T && g.dl.Width == g.width && g.dl.Height == g.height && g.builtOpt == opt {
		return
	}
	build := func() error { return buildScene(&g.dl, g.cur.tl, g.clock.T, opt) }
	if g.cur.long != nil {
		build = func() error { return buildLong(&g.dl, g.cur, g.clock.T, opt) }
	}
	if err := build(); err != nil {
		g.cur = &session{query: g.cur.query, s: g.cur.s, errTitle: "The demo could not be drawn", errLines: []string{err.Error()}}
		g.clock = nil
		return
	}
	g.builtAt, g.built, g.builtOpt = g.clock.T, true, opt
	g.minText = smallestText(&g.dl)
}

// Draw replays the draw list: background, then shapes and labels in
// draw-list order in one batch. It counts frames and measures the frame rate for the bridge.
func (g *game) Draw(screen *ebiten.Image) {
	g.frames++
	g.fps.frame(time.Now())
	if g.plan.draw(g, screen) {
		g.damage.Invalidate()
		g.repainted = 1
		g.bridge.publish(g)
		return
	}
	switch {
	case g.cur == nil || g.fonts == nil:
		g.damage.Invalidate()
		g.batch.box(screen, 0, 0, g.width, g.height, errorBG)
		g.batch.flush(screen)
	case g.clock == nil:
		g.damage.Invalidate()
		g.drawError(screen)
	case g.built:
		t0 := time.Now()
		g.drawList(screen)
		g.fps.draw += time.Since(t0)
	default:
		// Before the first Update: never a transparent canvas.
		g.damage.Invalidate()
		g.batch.box(screen, 0, 0, g.width, g.height, errorBG)
		g.batch.flush(screen)
	}
	g.bridge.publish(g)
}

// drawList repaints what changed since the last frame: the regions
// scene.Damage finds, each filled with the background and redrawn, clipped,
// from the items that overlap it — or the whole canvas when most of it
// changed. On the 8×8 H100 ring this leaves the strip's 7,000 rectangles
// alone in most frames, which is most of a frame's cost in software WebGL.
func (g *game) drawList(screen *ebiten.Image) {
	bg := g.dl.Background
	bg.A = 255
	regions, full := g.damage.Update(g.dl)
	if full || g.fullRedraw {
		g.repainted = 1
		g.batch.box(screen, 0, 0, g.width, g.height, bg)
		g.batch.addItems(screen, g.fonts, g.dl.Items)
		g.batch.flush(screen)
		return
	}
	area := 0
	if len(regions) > 0 {
		g.bounds = g.bounds[:0]
		for i := range g.dl.Items {
			g.bounds = append(g.bounds, g.dl.Items[i].Bounds())
		}
	}
	for _, r := range regions {
		area += r.Area()
		sub := screen.SubImage(image.Rect(r.X0, r.Y0, r.X1, r.Y1)).(*ebiten.Image)
		g.batch.box(sub, float64(r.X0), float64(r.Y0), float64(r.X1), float64(r.Y1), bg)
		for i := range g.dl.Items {
			if g.bounds[i].Overlaps(r) {
				g.batch.addItems(sub, g.fonts, g.dl.Items[i:i+1])
			}
		}
		g.batch.flush(sub)
	}
	g.repainted = float64(area) / (g.width * g.height)
}

// LayoutF sizes the canvas to the page's stage in device pixels, within
// the bounds above (keeping the stage's aspect ratio).
func (g *game) LayoutF(ow, oh float64) (float64, float64) {
	if ow > 0 && oh > 0 {
		scale := deviceScale()
		w, h := math.Round(ow*scale), math.Round(oh*scale)
		if k := min(1, maxHeight/h, maxWidth/w); k < 1 {
			w, h = math.Round(w*k), math.Round(h*k)
		}
		if h < minHeight {
			w, h = math.Round(w*minHeight/h), minHeight
		}
		g.width, g.height = max(w, 1), h
	}
	return g.width, g.height
}

// fpsMeter counts frames over windows of at least half a second, and the
// Go time per frame spent building the scene and batching it: the part of a
// frame the app controls (the rest is the browser's WebGL and compositing).
type fpsMeter struct {
	start       time.Time
	n           int
	fps         float64
	build, draw time.Duration // summed over the current window
	// buildMs and drawMs are the last window's means per frame.
	buildMs, drawMs float64
}

func (m *fpsMeter) frame(now time.Time) {
	if m.start.IsZero() {
		m.start = now
	}
	m.n++
	if d := now.Sub(m.start).Seconds(); d >= 0.5 {
		ms := func(x time.Duration) float64 { return x.Seconds() * 1000 / float64(m.n) }
		m.fps, m.buildMs, m.drawMs = float64(m.n)/d, ms(m.build), ms(m.draw)
		m.n, m.start, m.build, m.draw = 0, now, 0, 0
	}
}
