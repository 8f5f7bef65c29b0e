//go:build js && wasm

package main

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"paraplay/sim/scene"
)

// pointer follows the mouse (or the first finger) over the canvas: it
// names what is under it for the inspector, and scrubs when a drag starts
// on the timeline strip.
type pointer struct {
	x, y     int
	id, text string
	dragging bool
	resume   bool // playing when the drag began
	touch    ebiten.TouchID
	touched  bool
}

// position is the pointer in logical pixels and whether it is pressed.
func (p *pointer) position() (x, y int, pressed, justPressed bool) {
	if ids := inpututil.AppendJustPressedTouchIDs(nil); len(ids) > 0 {
		p.touch, p.touched = ids[0], true
	}
	if p.touched {
		if inpututil.IsTouchJustReleased(p.touch) {
			p.touched = false
			return p.x, p.y, false, false
		}
		x, y := ebiten.TouchPosition(p.touch)
		return x, y, true, inpututil.TouchPressDuration(p.touch) == 1
	}
	x, y = ebiten.CursorPosition()
	return x, y, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
}

// update scrubs and refreshes the inspector text.
func (p *pointer) update(g *game) {
	x, y, pressed, just := p.position()
	fx, fy := float64(x), float64(y)
	t, inside := scene.StripTimeAt(g.dl, g.clock.End, fx, fy)
	switch {
	case just && inside:
		p.dragging, p.resume = true, g.clock.Playing
		g.clock.Playing = false
		g.clock.Seek(t)
	case p.dragging && pressed:
		g.clock.Seek(t)
	case p.dragging:
		p.dragging = false
		g.clock.Playing = p.resume
	}
	if p.dragging {
		g.rebuild()
	}
	p.x, p.y = x, y
	p.id, p.text = "", ""
	if id, ok := scene.HitTest(g.dl, fx, fy); ok && !p.dragging {
		if g.cur.long != nil {
			p.id, p.text = id, scene.DescribeLong(*g.cur.long, id)
		} else {
			p.id, p.text = id, scene.Describe(g.cur.tl, id, g.clock.T)
		}
	}
}
