//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"time"

	"syscall/js"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

// exporter answers the page's export buttons with the same Go encoders the
// command line uses (sim/scene), so a GIF made in the browser has the
// frames `paraplay export` makes. A GIF is encoded in slices: the page
// calls exportGIFStep once per animation frame with a time budget, so the
// canvas keeps animating and the page stays responsive while it works.
type exporter struct {
	g   *game
	job *gifJob
}

// gifJob is one GIF being encoded.
type gifJob struct {
	enc  *scene.GIFEncoder
	data []byte
	err  error
}

// registerExport adds the export functions to window.paraplay:
//
//	exportPNG(w, h)   → {width, height, pixels}: the frame on screen as RGBA
//	                    pixels (opaque) for the page to encode as a PNG
//	exportSVG(w, h)   → string, the same frame as SVG
//	exportGIF({width, height, fps, speed, from, to}) → "" or an error
//	exportGIFStep(ms) → {done, total, finished, error}
//	exportGIFResult() → Uint8Array of the finished GIF (once)
//	exportGIFCancel()
//
// Sizes default to the canvas's logical size; times are nanoseconds.
func registerExport(g *game) {
	x := &exporter{g: g}
	b := g.bridge
	b.fn("exportPNG", func(a []js.Value) any { return x.still(a, "png") })
	b.fn("exportSVG", func(a []js.Value) any { return x.still(a, "svg") })
	b.fn("exportGIF", func(a []js.Value) any { return x.startGIF(a) })
	b.fn("exportGIFStep", func(a []js.Value) any { return x.step(floatArg(a, 0, 30)) })
	b.fn("exportGIFResult", func([]js.Value) any { return x.result() })
	b.fn("exportGIFCancel", func([]js.Value) any { x.job = nil; return nil })
}

// options are the scene options of an export of size w×h (0: the canvas).
func (x *exporter) options(w, h float64) scene.Options {
	if w <= 0 {
		w = x.g.width
	}
	if h <= 0 {
		h = x.g.height
	}
	return x.g.sceneOptions(x.g.current(), w, h)
}

// still encodes the instant on screen.
func (x *exporter) still(a []js.Value, format string) any {
	ss := x.g.current()
	if ss == nil || ss.tl == nil {
		return js.Null()
	}
	opt := x.options(floatArg(a, 0, 0), floatArg(a, 1, 0))
	if err := opt.Validate(); err != nil {
		return js.Null()
	}
	dl := framesOf(ss.tl).Build(units.Time(x.g.bridge.obj.Get("simTime").Float()), opt)
	var buf bytes.Buffer
	if format == "svg" {
		if scene.WriteSVG(&buf, dl) != nil {
			return js.Null()
		}
		return buf.String()
	}
	// The PNG itself is encoded by the page (a canvas's toBlob): the pixels
	// are the ones `paraplay export --format png` rasterizes, and the wasm
	// carries no PNG encoder (image/png and zlib, about 12 KB gzipped).
	r, err := scene.NewRaster()
	if err != nil {
		return js.Null()
	}
	img, err := r.Draw(dl)
	if err != nil {
		return js.Null()
	}
	return js.ValueOf(map[string]any{"width": img.Rect.Dx(), "height": img.Rect.Dy(), "pixels": toUint8Array(img.Pix)})
}

// startGIF checks the options and prepares the encoder; it returns "" or
// a message naming the bad option.
func (x *exporter) startGIF(a []js.Value) any {
	ss := x.g.current()
	if ss == nil || ss.tl == nil {
		return "there is no run to export"
	}
	o := js.Undefined()
	if len(a) > 0 && a[0].Type() == js.TypeObject {
		o = a[0]
	}
	num := func(k string, def float64) float64 {
		if o.IsUndefined() {
			return def
		}
		if v := o.Get(k); v.Type() == js.TypeNumber {
			return v.Float()
		}
		return def
	}
	speed := x.g.bridge.obj.Get("speed").Float()
	anim := scene.Animation{
		Options: x.options(num("width", 800), num("height", 450)),
		FPS:     num("fps", 15),
		Speed:   num("speed", speed),
		From:    units.Time(num("from", 0)),
		To:      units.Time(num("to", 0)),
	}
	enc, err := scene.NewGIFEncoder(framesOf(ss.tl), anim)
	if err != nil {
		return err.Error()
	}
	x.job = &gifJob{enc: enc}
	return ""
}

// stepResult is what exportGIFStep returns.
func stepResult(done, total int, finished bool, err error) any {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return map[string]any{"done": done, "total": total, "finished": finished, "error": msg}
}

// step encodes frames for about budget milliseconds (at least one).
func (x *exporter) step(budget float64) any {
	j := x.job
	if j == nil {
		return stepResult(0, 0, false, fmt.Errorf("no GIF export is running"))
	}
	if j.data != nil || j.err != nil {
		return stepResult(j.enc.Done(), j.enc.Frames(), true, j.err)
	}
	start := time.Now()
	for {
		more, err := j.enc.Next()
		if err != nil {
			j.err = err
			break
		}
		if !more {
			var buf bytes.Buffer
			if _, err := j.enc.WriteTo(&buf); err != nil {
				j.err = err
			}
			j.data = buf.Bytes()
			break
		}
		if time.Since(start).Seconds()*1000 >= budget {
			break
		}
	}
	return stepResult(j.enc.Done(), j.enc.Frames(), j.data != nil || j.err != nil, j.err)
}

// result hands over the finished GIF and forgets it.
func (x *exporter) result() any {
	j := x.job
	if j == nil || j.data == nil {
		return js.Null()
	}
	x.job = nil
	return toUint8Array(j.data)
}

func toUint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}
