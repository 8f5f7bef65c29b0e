//go:build js && wasm

package webgl

import "syscall/js"

// Tune makes every later getContext("webgl2") call on a canvas ask for a
// single-sampled drawing buffer that is not preserved between frames
// (antialias and preserveDrawingBuffer false, the caller's other attributes
// kept), and drops the redundant screen clear from the context it returns
// (see the package comment) unless the page set
// window.paraplayKeepScreenClear, which a browser test does to compare the
// two. Call it before ebiten.RunGame. It is idempotent.
func Tune() {
	proto := js.Global().Get("HTMLCanvasElement").Get("prototype")
	if proto.Get("__paraplayTuned").Truthy() {
		return
	}
	orig := proto.Get("getContext")
	object := js.Global().Get("Object")
	skip := js.Global().Get("Function").New("gl", skipScreenClear)
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
		if webgl2 && ctx.Truthy() && !js.Global().Get("paraplayKeepScreenClear").Truthy() {
			skip.Invoke(ctx)
		}
		return ctx
	})
	proto.Set("getContext", wrapped)
	proto.Set("__paraplayTuned", true)
}

// skipScreenClear is the body of a JavaScript function of gl that wraps
// three of its methods to drop any draw onto the canvas itself (the
// default framebuffer, bound as null or undefined) made with the copy blend (ONE, ZERO
// for colour and alpha). Ebitengine draws onto the canvas only twice a
// frame: the clear, with the copy blend, and the copy of its offscreen
// image, with source-over, which stays. It is plain JavaScript, not Go
// callbacks, because it runs on every draw call.
const skipScreenClear = `
if (!gl || gl.__paraplaySkipsClear) return;
gl.__paraplaySkipsClear = true;
const bind = gl.bindFramebuffer, blend = gl.blendFuncSeparate, draw = gl.drawElements;
let canvas = true, copy = false;
gl.bindFramebuffer = function (target, fb) {
	if (target === gl.FRAMEBUFFER || target === gl.DRAW_FRAMEBUFFER) canvas = fb == null; // Ebitengine passes undefined
	return bind.call(this, target, fb);
};
gl.blendFuncSeparate = function (sr, dr, sa, da) {
	copy = sr === gl.ONE && dr === gl.ZERO && sa === gl.ONE && da === gl.ZERO;
	return blend.call(this, sr, dr, sa, da);
};
gl.drawElements = function (mode, count, type, offset) {
	if (canvas && copy) { gl.paraplaySkippedClears = (gl.paraplaySkippedClears || 0) + 1; return; }
	return draw.call(this, mode, count, type, offset);
};
`
