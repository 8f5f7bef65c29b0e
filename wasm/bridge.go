//go:build js && wasm

package main

import "syscall/js"

// bridge publishes the app's state as window.paraplay for the host page
// and the browser tests. The object is created once; its properties are
// overwritten each frame, which allocates nothing on the JS side.
type bridge struct {
	obj js.Value
}

func newBridge() *bridge {
	obj := js.Global().Get("Object").New()
	obj.Set("frames", 0)
	obj.Set("simTime", 0)
	obj.Set("end", 0)
	obj.Set("speed", 1)
	obj.Set("state", "loading")
	obj.Set("error", "")
	js.Global().Set("paraplay", obj)
	return &bridge{obj: obj}
}

// publish writes the per-frame state.
func (b *bridge) publish(frames int, p *playback, errText string) {
	b.obj.Set("frames", frames)
	switch {
	case errText != "":
		b.obj.Set("state", "error")
	case p == nil:
		b.obj.Set("state", "loading")
	case p.playing:
		b.obj.Set("state", "playing")
	default:
		b.obj.Set("state", "paused")
	}
	b.obj.Set("error", errText)
	if p != nil {
		b.obj.Set("simTime", float64(p.t))
		b.obj.Set("end", float64(p.end))
		b.obj.Set("speed", p.speed)
	}
}

// fail records an error that happened outside a frame (RunGame failing).
func (b *bridge) fail(msg string) {
	b.obj.Set("state", "error")
	b.obj.Set("error", msg)
}
