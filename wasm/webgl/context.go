//go:build js && wasm

package webgl

import "syscall/js"

// Tune makes every later getContext("webgl2") call on a canvas ask for a
// single-sampled drawing buffer that is not preserved between frames
// (antialias and preserveDrawingBuffer false, the caller's other attributes
// kept), and drops the redundant screen clear from the context it returns
// (see the package comment) with the page's paraplaySkipScreenClear
// (site/assets/webgl-tune.js), unless the page set
// window.paraplayKeepScreenClear, which a browser test does to compare the
// two. Call it before ebiten.RunGame. It is idempotent.
func Tune() {
	proto := js.Global().Get("HTMLCanvasElement").Get("prototype")
	if proto.Get("__paraplayTuned").Truthy() {
		return
	}
	orig := proto.Get("getContext")
	object := js.Global().Get("Object")
	// The wrapper is JavaScript from the page (site/assets/webgl-tune.js),
	// not a string compiled here: the site's Content-Security-Policy
	// forbids eval. A page without it keeps Ebitengine's clear.
	skip := js.Global().Get("paraplaySkipScreenClear")
	wrapped := js.FuncOf(func(this js.Value, args []js.Value) any {
		argv := make([]any, len(args))
		for i, a := range args {
			argv[i] = a
		}
		webgl2 := len(args) > 0 && args[0].Type() == js.TypeString && args[0].String() == "webgl2"
		if webgl2 {
			attrs := object.Call("assign", object.New(), js.Undefined())
			if len(args) > 1 && args[1].Type() == js.TypeObject {
				attrs = object.Call("assign", object.New(), args[1])
			}
			attrs.Set("antialias", false)
			attrs.Set("preserveDrawingBuffer", false)
			if len(argv) < 2 {
				argv = append(argv, attrs)
			} else {
				argv[1] = attrs
			}
		}
		ctx := orig.Call("apply", this, js.ValueOf(argv))
		if webgl2 && ctx.Truthy() && skip.Type() == js.TypeFunction && !js.Global().Get("paraplayKeepScreenClear").Truthy() {
			skip.Invoke(ctx)
		}
		return ctx
	})
	proto.Set("getContext", wrapped)
	proto.Set("__paraplayTuned", true)
}
