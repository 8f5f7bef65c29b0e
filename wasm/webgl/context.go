//go:build js && wasm

package webgl

import "syscall/js"

// SingleSampled makes every later getContext("webgl2") call on a canvas ask
// for a single-sampled drawing buffer (antialias: false), keeping the other
// attributes the caller passed. Call it before ebiten.RunGame. It is
// idempotent.
func SingleSampled() {
	proto := js.Global().Get("HTMLCanvasElement").Get("prototype")
	if proto.Get("__paraplaySingleSampled").Truthy() {
		return
	}
	orig := proto.Get("getContext")
	object := js.Global().Get("Object")
	wrapped := js.FuncOf(func(this js.Value, args []js.Value) any {
		argv := make([]any, len(args))
		for i, a := range args {
			argv[i] = a
		}
		if len(args) > 0 && args[0].Type() == js.TypeString && args[0].String() == "webgl2" {
			attrs := object.Call("assign", object.New(), js.Undefined())
			if len(args) > 1 && args[1].Type() == js.TypeObject {
				attrs = object.Call("assign", object.New(), args[1])
			}
			attrs.Set("antialias", false)
			if len(argv) < 2 {
				argv = append(argv, attrs)
			} else {
				argv[1] = attrs
			}
		}
		return orig.Call("apply", this, js.ValueOf(argv))
	})
	proto.Set("getContext", wrapped)
	proto.Set("__paraplaySingleSampled", true)
}
